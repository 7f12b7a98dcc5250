// Neo4j: the next $limit current credentials after $after (by id) that supervise any relationship:
// a roster's day counts are built a batch of them at a time (roster-days.cypher).
// :param after => ''
// :param limit => 2000
MATCH (s:LicenseCredential)
WHERE s.id > $after AND EXISTS { (s)-[:SUPERVISES]->() }
RETURN s.id AS id
ORDER BY s.id
LIMIT $limit
