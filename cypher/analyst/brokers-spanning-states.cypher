// Supervisors whose affiliates on $as_of (ISO date) hold licences in more than one state. Only the
// published generation's versions (vf, vt: docs/graph.md).
OPTIONAL MATCH (snapshot:Snapshot {id: 'graph'})
WITH coalesce(snapshot.generation, 0) AS g
MATCH (b:LicenseCredential|Superseded)-[r:SUPERVISES]->(a)
WHERE coalesce(b.vf, CASE WHEN b.id IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(b.vt, CASE WHEN b.id IS NULL THEN g ELSE g + 1 END) > g AND coalesce(r.vf, CASE WHEN r.relationship_type IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(r.vt, CASE WHEN r.relationship_type IS NULL THEN g ELSE g + 1 END) > g AND r.effective_from <= date($as_of) AND (r.effective_to IS NULL OR r.effective_to > date($as_of))
WITH b, count(DISTINCT a.state) AS states, count(a) AS affiliates, collect(DISTINCT a.state) AS affiliate_states
WHERE states > 1
RETURN b.state AS state, b.license_number AS license_number, b.full_name AS name, states, affiliates, affiliate_states
ORDER BY states DESC, affiliates DESC
