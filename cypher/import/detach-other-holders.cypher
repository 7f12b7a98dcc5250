// Unlinks credentials from a licensee other than the one the import now names.
// $rows: maps with id (credential) and licensee_id.
UNWIND $rows AS r
MATCH (l:Licensee)-[h:HOLDS]->(c:LicenseCredential {id: r.id})
WHERE l.id <> r.licensee_id
DELETE h
