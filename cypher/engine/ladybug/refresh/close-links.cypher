// Ends open supervision relationships. $rows: maps with supervisor_id, affiliate_id,
// relationship_type, effective_from and effective_to (ISO dates).
UNWIND $rows AS r
MATCH (s:LicenseCredential {id: r.supervisor_id})-[e:SUPERVISES]->(a:LicenseCredential {id: r.affiliate_id})
WHERE e.relationship_type = r.relationship_type AND e.effective_from = date(r.effective_from) AND e.effective_to IS NULL
SET e.effective_to = date(r.effective_to)
