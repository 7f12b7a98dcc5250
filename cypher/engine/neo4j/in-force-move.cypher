// Neo4j: moves the day the SUPERVISES_IN_FORCE relationships hold (see in-force-day.cypher).
// :param day => '2026-11-26'
MATCH (d:InForceDay {id: 'supervises'})
SET d.date = date($day)
