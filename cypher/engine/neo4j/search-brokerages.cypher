// Neo4j: the brokerage rows of every credential of $states that the readers of generation $g see,
// for its AFFILIATED_WITH brokerage (search-brokers.cypher has its SUPERVISES): the brokerage's
// folded name, with no dates (always).
// :param states => ['TX', 'FL']
// :param g => 0
UNWIND $states AS code
MATCH (:Jurisdiction {code: code})<-[:IN_JURISDICTION]-(c)
WHERE c.state = code AND coalesce(c.vf, CASE WHEN c.id IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(c.vt, CASE WHEN c.id IS NULL THEN $g ELSE $g + 1 END) > $g
// The label in WHERE, not the pattern: over few brokerages the planner would otherwise start from
// all of them (a label scan) and join.
MATCH (c)-[:AFFILIATED_WITH]->(bb)
WHERE bb:Brokerage AND bb.f_name IS NOT NULL
RETURN c.state AS state, c.id AS id, null AS effective_from, null AS effective_to, bb.f_name AS names
