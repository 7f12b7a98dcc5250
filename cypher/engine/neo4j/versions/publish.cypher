// Neo4j: publishes generation $g, last in the transaction that writes what a refresh shows at once
// (its jurisdiction, counts and run); no row when $holder no longer holds the claim (then the
// transaction rolls back).
// :param holder => 'host:1234'
// :param g => 1
MATCH (s:Snapshot {id: 'graph'}) WHERE s.holder = $holder AND s.generation = $g - 1
SET s.generation = $g, s.published_at = datetime()
REMOVE s.holder, s.heartbeat_at
RETURN s.generation AS generation
