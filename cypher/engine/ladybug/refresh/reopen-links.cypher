// Opens relationships that exist with the same key, setting role and source; returns the keys
// it found. (LadybugDB 0.19 exhausts its buffer pool on MERGE of a relationship inside a
// transaction that also wrote nodes, so a refresh matches and creates instead.)
// $rows: maps with supervisor_id, affiliate_id, relationship_type, effective_from, affiliate_role, source.
UNWIND $rows AS r
MATCH (s:LicenseCredential {id: r.supervisor_id})-[e:SUPERVISES]->(a:LicenseCredential {id: r.affiliate_id})
WHERE e.relationship_type = r.relationship_type AND e.effective_from = date(r.effective_from)
SET e.effective_to = NULL, e.affiliate_role = r.affiliate_role, e.source = r.source
RETURN s.id AS supervisor_id, a.id AS affiliate_id, e.relationship_type AS relationship_type
