// Neo4j, in a refresh run of generation $g: credentials listed again unchanged, whose new snapshot
// date, verification time and first note are the run's (touch-stamp.cypher): each is marked with the
// run's generation (tg), the last published mark kept as tg0 for the readers of that generation.
// Readers take the stamp's values from tg on, unless a snapshot pair (sg) is newer (docs/graph.md,
// "Versions"). Two integers a row, where touch-credentials.cypher writes seven properties.
// :param g => 1
// :param published => 0
UNWIND $ids AS id
MATCH (c:LicenseCredential {id: id}) USING INDEX c:LicenseCredential(id)
SET c.tg0 = CASE WHEN c.tg <= $published THEN c.tg ELSE c.tg0 END, c.tg = $g
