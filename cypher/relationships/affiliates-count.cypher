// Exact number of current affiliate relationships of a supervising credential ($id).
MATCH (s:LicenseCredential {id: $id})-[r:SUPERVISES]->(a:LicenseCredential)
WHERE r.effective_to IS NULL
// @filters
RETURN count(r) AS total
