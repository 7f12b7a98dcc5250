// Supervisors whose current affiliates hold licences in more than one state.
MATCH (b:LicenseCredential)-[r:SUPERVISES]->(a:LicenseCredential)
WHERE r.effective_to IS NULL
WITH b, count(DISTINCT a.state) AS states, count(a) AS affiliates, collect(DISTINCT a.state) AS affiliate_states
WHERE states > 1
RETURN b.state AS state, b.license_number AS license_number, b.full_name AS name, states, affiliates, affiliate_states
ORDER BY states DESC, affiliates DESC
