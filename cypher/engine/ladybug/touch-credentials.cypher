// LadybugDB only: refresh/touch-credentials.cypher as a bulk load (see update-credentials for the
// MERGE). Columns: id, snapshot_date, last_verified, data_source_notes, doc.
// @load
MERGE (c:LicenseCredential {id: id})
SET c.snapshot_date = snapshot_date, c.last_verified = last_verified,
    c.data_source_notes = string_split(data_source_notes, $notes_separator), c.doc = doc
