// Neo4j: the readers (engine processes, readers.ts) heard from within $stale_seconds that may
// still read a generation before $published: what generation $published replaced stays until none.
// :param published => 1
// :param stale_seconds => 30
OPTIONAL MATCH (r:GraphReader) WHERE r.beat_at >= datetime() - duration({seconds: $stale_seconds}) AND r.oldest < $published
RETURN count(r) AS behind, collect(r.holder)[..3] AS holders
