// Licences supervised on $as_of (ISO date) by a licence that is expired, inactive or suspended,
// or whose expiration date has passed by then. Only the published generation's versions (vf, vt:
// docs/graph.md); a status a refresh left pending (p_status) is not yet the published one.
OPTIONAL MATCH (snapshot:Snapshot {id: 'graph'})
WITH coalesce(snapshot.generation, 0) AS g
MATCH (s:LicenseCredential|Superseded)-[r:SUPERVISES]->(a)
WHERE coalesce(s.vf, CASE WHEN s.id IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(s.vt, CASE WHEN s.id IS NULL THEN g ELSE g + 1 END) > g AND coalesce(r.vf, CASE WHEN r.relationship_type IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(r.vt, CASE WHEN r.relationship_type IS NULL THEN g ELSE g + 1 END) > g AND r.effective_from <= date($as_of) AND (r.effective_to IS NULL OR r.effective_to > date($as_of)) AND (s.status_normalized IN ['expired', 'inactive', 'suspended'] OR s.expiration_date < date($as_of))
RETURN a.state AS state, a.license_number AS license_number, a.full_name AS name,
       s.license_number AS supervisor_license_number, s.status AS supervisor_status,
       r.relationship_type AS relationship_type, r.effective_from AS effective_from
ORDER BY state, license_number
