// The end date on file of each relationship of $rows that exists, by the upsert's key.
// $rows: maps with supervisor_id, affiliate_id, relationship_type, effective_from (ISO date).
UNWIND $rows AS r
MATCH (s:LicenseCredential {id: r.supervisor_id})-[e:SUPERVISES]->(a:LicenseCredential {id: r.affiliate_id})
WHERE e.relationship_type = r.relationship_type AND e.effective_from = date(r.effective_from)
RETURN r.supervisor_id AS supervisor_id, r.affiliate_id AS affiliate_id, r.relationship_type AS relationship_type,
       r.effective_from AS effective_from, e.effective_to AS effective_to
