// Neo4j: per state of $steps, the published lists of what each rows_version from `from` (after
// it) to `to` changed (row-changes-write.cypher), newest first: every part of every version, or
// the state is read whole (an import batch, a takeover or a failed run keeps none). With $packed,
// each list's pack (row-changes-pack.cypher) in place of its rows.
// :param steps => [{state: 'FL', from: 3, to: 5}]
// :param packed => false
UNWIND $steps AS s
OPTIONAL MATCH (x:RowChanges {state: s.state}) WHERE x.version > s.from AND x.version <= s.to AND x.published
WITH s, x ORDER BY x.version DESC, x.part
RETURN s.state AS state,
       collect(x {.version, .part, .parts, .ids, rows: CASE WHEN $packed THEN null ELSE x.rows END, packed: CASE WHEN $packed THEN x.packed END}) AS parts
