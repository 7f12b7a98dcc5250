// Neo4j: per state of $steps, the published lists of what each rows_version from `from` (after
// it) to `to` changed (row-changes-write.cypher), newest first: every part of every version, or
// the state is read whole (an import batch, a takeover or a failed run keeps none).
// :param steps => [{state: 'FL', from: 3, to: 5}]
UNWIND $steps AS s
OPTIONAL MATCH (x:RowChanges {state: s.state}) WHERE x.version > s.from AND x.version <= s.to AND x.published
WITH s, x ORDER BY x.version DESC, x.part
RETURN s.state AS state, collect(x {.version, .part, .parts, .ids, .rows}) AS parts
