// Neo4j: claims the graph's one running refresh for $holder (host:pid), unless another holds it and
// was heard from within $stale_seconds (or is $gone, a holder known dead); gives the published
// generation and, when not claimed, who holds it. See docs/graph.md, "Versions".
// :param holder => 'host:1234'
// :param gone => null
// :param stale_seconds => 30
MERGE (s:Snapshot {id: 'graph'})
  ON CREATE SET s.generation = 0
WITH s, s.holder IS NULL OR s.holder = $holder OR s.holder = $gone
        OR s.heartbeat_at < datetime() - duration({seconds: $stale_seconds}) AS free
SET s.holder = CASE WHEN free THEN $holder ELSE s.holder END,
    s.heartbeat_at = CASE WHEN free THEN datetime() ELSE s.heartbeat_at END
RETURN free, s.generation AS generation, s.holder AS holder, toString(s.heartbeat_at) AS heartbeat_at
