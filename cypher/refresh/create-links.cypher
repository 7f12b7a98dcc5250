// Creates new open supervision relationships. $rows: maps with supervisor_id, affiliate_id,
// relationship_type, effective_from (ISO date), affiliate_role, source.
UNWIND $rows AS r
MATCH (s:LicenseCredential {id: r.supervisor_id})
MATCH (a:LicenseCredential {id: r.affiliate_id})
CREATE (s)-[:SUPERVISES {relationship_type: r.relationship_type, effective_from: date(r.effective_from), affiliate_role: r.affiliate_role, source: r.source}]->(a)
