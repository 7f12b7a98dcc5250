// Creates new open supervision relationships. $rows: maps with supervisor_id, affiliate_id,
// relationship_type, effective_from (ISO date), affiliate_role, source.
UNWIND $rows AS r
WITH r, r.supervisor_id AS supervisor, r.affiliate_id AS affiliate
MATCH (s:LicenseCredential {id: supervisor})
MATCH (a:LicenseCredential {id: affiliate})
CREATE (s)-[:SUPERVISES {relationship_type: r.relationship_type, effective_from: date(r.effective_from), affiliate_role: r.affiliate_role, source: r.source}]->(a)
