// Neo4j: the running refresh $holder is alive (claim.cypher); no row when another took it over.
// :param holder => 'host:1234'
MATCH (s:Snapshot {id: 'graph'}) WHERE s.holder = $holder
SET s.heartbeat_at = datetime()
RETURN s.generation AS generation
