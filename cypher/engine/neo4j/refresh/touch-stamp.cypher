// Neo4j, in a refresh run of generation $g: the values the credentials it lists unchanged take from
// it (touch-listed.cypher): the snapshot date, the verification time, and the first of their notes
// (the source and snapshot line; the rest are the row's, which an unchanged row keeps). A stamp a
// run that died left under the same generation is overwritten.
// :param g => 1
// :param snapshot_date => '2026-01-01'
// :param last_verified => '2026-01-01T00:00:00.000Z'
// :param note => 'Source: x, snapshot of 2026-01-01'
MERGE (s:TouchStamp {g: $g})
SET s.snapshot_date = date($snapshot_date), s.last_verified = $last_verified, s.note = $note
