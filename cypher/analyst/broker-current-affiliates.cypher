// A broker's affiliates on $as_of (ISO date; today: :param as_of => toString(date())) from the licence
// $state / $license_number (canonical form, e.g. 'TX', '9089631-B'), newest first. Only the
// published generation's versions (vf, vt: docs/graph.md), so a refresh under way shows nothing twice.
OPTIONAL MATCH (snapshot:Snapshot {id: 'graph'})
WITH coalesce(snapshot.generation, 0) AS g
MATCH (head:LicenseCredential {state: $state, license_number: $license_number})
CALL (head) {
  MATCH (b:LicenseCredential {id: head.id}) RETURN b
  UNION
  MATCH (b:Superseded {id: head.id}) RETURN b
}
WITH g, b WHERE coalesce(b.vf, CASE WHEN b.id IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(b.vt, CASE WHEN b.id IS NULL THEN g ELSE g + 1 END) > g
MATCH (b)-[r:SUPERVISES]->(a)
WHERE coalesce(r.vf, CASE WHEN r.relationship_type IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(r.vt, CASE WHEN r.relationship_type IS NULL THEN g ELSE g + 1 END) > g AND r.effective_from <= date($as_of) AND (r.effective_to IS NULL OR r.effective_to > date($as_of))
RETURN a.license_number AS license_number, a.full_name AS full_name, a.license_type AS license_type,
       a.status AS status, r.affiliate_role AS affiliate_role, r.relationship_type AS relationship_type,
       r.effective_from AS effective_from
ORDER BY effective_from DESC, license_number
