// Removes open relationships that had not started by the snapshot that no longer holds them.
// $rows: maps with supervisor_id, affiliate_id, relationship_type, effective_from.
UNWIND $rows AS r
WITH r, r.supervisor_id AS supervisor, r.affiliate_id AS affiliate
MATCH (s:LicenseCredential {id: supervisor})-[e:SUPERVISES]->(a:LicenseCredential {id: affiliate})
WHERE e.relationship_type = r.relationship_type AND e.effective_from = date(r.effective_from) AND e.effective_to IS NULL
DELETE e
