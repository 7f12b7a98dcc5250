// Neo4j: the day the SUPERVISES_IN_FORCE relationships hold the links in force on, its node
// locked for the rest of the transaction so that no other writer moves it meanwhile (setting a
// property takes the node's write lock, even to its own value).
MATCH (d:InForceDay {id: 'supervises'})
SET d.date = d.date
RETURN toString(d.date) AS day
