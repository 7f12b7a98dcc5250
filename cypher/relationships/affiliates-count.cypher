// Exact number of relationships in force on $today from a supervising credential ($id).
MATCH (s:LicenseCredential {id: $id})-[r:SUPERVISES]->(a:LicenseCredential)
WHERE r.effective_from <= date($today) AND (r.effective_to IS NULL OR r.effective_to > date($today))
// @filters
RETURN count(r) AS total
