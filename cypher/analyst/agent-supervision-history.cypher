// An agent's supervision history: every supervising relationship of the licence
// $state / $license_number, oldest first, with who supervised and when. Only the published
// generation's versions (vf, vt: docs/graph.md).
OPTIONAL MATCH (snapshot:Snapshot {id: 'graph'})
WITH coalesce(snapshot.generation, 0) AS g
MATCH (head:LicenseCredential {state: $state, license_number: $license_number})
CALL (head) {
  MATCH (a:LicenseCredential {id: head.id}) RETURN a
  UNION
  MATCH (a:Superseded {id: head.id}) RETURN a
}
WITH g, a WHERE coalesce(a.vf, CASE WHEN a.id IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(a.vt, CASE WHEN a.id IS NULL THEN g ELSE g + 1 END) > g
MATCH (a)<-[r:SUPERVISES]-(s)
WHERE coalesce(r.vf, CASE WHEN r.relationship_type IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(r.vt, CASE WHEN r.relationship_type IS NULL THEN g ELSE g + 1 END) > g
RETURN s.license_number AS supervisor_license_number, s.full_name AS supervisor_name,
       s.business_name AS supervisor_business_name, r.relationship_type AS relationship_type,
       r.affiliate_role AS affiliate_role, r.effective_from AS effective_from, r.effective_to AS effective_to
ORDER BY effective_from, supervisor_license_number
