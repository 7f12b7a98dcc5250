// Supervision chains of three or more links in force on $as_of (ISO date): each licence with
// the supervisor three levels up. Only the published generation's versions (vf, vt: docs/graph.md).
OPTIONAL MATCH (snapshot:Snapshot {id: 'graph'})
WITH coalesce(snapshot.generation, 0) AS g
MATCH (a:LicenseCredential|Superseded)<-[r1:SUPERVISES]-(s1)<-[r2:SUPERVISES]-(s2)<-[r3:SUPERVISES]-(s3)
WHERE coalesce(a.vf, CASE WHEN a.id IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(a.vt, CASE WHEN a.id IS NULL THEN g ELSE g + 1 END) > g AND coalesce(r1.vf, CASE WHEN r1.relationship_type IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(r1.vt, CASE WHEN r1.relationship_type IS NULL THEN g ELSE g + 1 END) > g AND coalesce(r2.vf, CASE WHEN r2.relationship_type IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(r2.vt, CASE WHEN r2.relationship_type IS NULL THEN g ELSE g + 1 END) > g AND coalesce(r3.vf, CASE WHEN r3.relationship_type IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(r3.vt, CASE WHEN r3.relationship_type IS NULL THEN g ELSE g + 1 END) > g
  AND r1.effective_from <= date($as_of) AND (r1.effective_to IS NULL OR r1.effective_to > date($as_of)) AND r2.effective_from <= date($as_of) AND (r2.effective_to IS NULL OR r2.effective_to > date($as_of)) AND r3.effective_from <= date($as_of) AND (r3.effective_to IS NULL OR r3.effective_to > date($as_of))
  AND a.id <> s2.id AND a.id <> s3.id AND s1.id <> s3.id
RETURN a.state AS state, a.license_number AS license_number, s1.license_number AS level_1,
       s2.license_number AS level_2, s3.license_number AS level_3
ORDER BY state, license_number
LIMIT 100
