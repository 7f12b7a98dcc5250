// Marks credentials a new snapshot lists again unchanged: only when they were seen changes (the
// snapshot date, last_verified, the notes and the read model that holds them). $rows: maps with
// id, snapshot_date (ISO date), last_verified, data_source_notes, doc.
UNWIND $rows AS r
MATCH (c:LicenseCredential {id: r.id})
SET c.snapshot_date = date(r.snapshot_date), c.last_verified = r.last_verified, c.data_source_notes = r.data_source_notes, c.doc = r.doc
