// Neo4j: the brokerage rows of every credential of $states that the readers of generation $g see,
// for its AFFILIATED_WITH brokerage (search-brokers.cypher has its SUPERVISES): the brokerage's
// folded name, with no dates (always).
// :param states => ['TX', 'FL']
// :param g => 0
UNWIND $states AS code
MATCH (:Jurisdiction {code: code})<-[:IN_JURISDICTION]-(c)
WHERE c.state = code AND coalesce(c.vf, CASE WHEN c.id IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(c.vt, CASE WHEN c.id IS NULL THEN $g ELSE $g + 1 END) > $g
// The label tested by labels(), which no label scan can solve: over few brokerages the planner
// otherwise may start from all of them (a label scan) and join, even with the label in WHERE.
MATCH (c)-[:AFFILIATED_WITH]->(bb)
WHERE 'Brokerage' IN labels(bb) AND bb.f_name IS NOT NULL
RETURN c.state AS state, c.id AS id, null AS effective_from, null AS effective_to, bb.f_name AS names
