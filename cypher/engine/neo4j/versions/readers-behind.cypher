// Neo4j: the readers (engine processes, readers.ts) heard from within $stale_seconds that may
// still read a generation before $published, by process: what generation $published replaced
// stays until none (a process on this host that is gone counts as none: versions.ts).
// :param published => 1
// :param stale_seconds => 30
OPTIONAL MATCH (r:GraphReader) WHERE r.beat_at >= datetime() - duration({seconds: $stale_seconds}) AND r.oldest < $published
RETURN collect(DISTINCT r.holder) AS holders
