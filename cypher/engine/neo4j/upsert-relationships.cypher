// Neo4j: import/upsert-relationships.cypher with the supervisor's id on each relationship (supervisor_id,
// which roster-changes.cypher seeks by); LadybugDB's SUPERVISES has no such column.
// Upserts supervision relationships keyed by (supervisor, affiliate, relationship_type,
// effective_from). Returns the line of each row whose two credentials exist.
// $rows: maps with line, supervisor_id, affiliate_id, affiliate_role, relationship_type,
// effective_from, effective_to (ISO date or null), source.
UNWIND $rows AS r
MATCH (s:LicenseCredential {id: r.supervisor_id}) USING INDEX s:LicenseCredential(id)
MATCH (a:LicenseCredential {id: r.affiliate_id}) USING INDEX a:LicenseCredential(id)
MERGE (s)-[e:SUPERVISES {relationship_type: r.relationship_type, effective_from: date(r.effective_from)}]->(a)
SET e.supervisor_id = s.id, e.affiliate_role = r.affiliate_role, e.effective_to = date(r.effective_to), e.source = r.source
RETURN r.line AS line
