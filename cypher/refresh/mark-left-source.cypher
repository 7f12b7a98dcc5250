// Marks credentials that left their source file: inactive, with the note given, last_verified
// untouched. $rows: maps with id, status, data_source_notes, left_source_on, and doc (LadybugDB's
// document of the record; Neo4j's rows have none).
UNWIND $rows AS r
MATCH (c:LicenseCredential {id: r.id})
SET c.status = r.status, c.status_normalized = 'inactive', c.data_source_notes = r.data_source_notes,
    c.doc = r.doc, c.left_source_on = date(r.left_source_on)
