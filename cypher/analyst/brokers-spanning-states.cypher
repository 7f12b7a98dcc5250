// Supervisors whose affiliates on $as_of (ISO date) hold licences in more than one state.
MATCH (b:LicenseCredential)-[r:SUPERVISES]->(a:LicenseCredential)
WHERE r.effective_from <= date($as_of) AND (r.effective_to IS NULL OR r.effective_to > date($as_of))
WITH b, count(DISTINCT a.state) AS states, count(a) AS affiliates, collect(DISTINCT a.state) AS affiliate_states
WHERE states > 1
RETURN b.state AS state, b.license_number AS license_number, b.full_name AS name, states, affiliates, affiliate_states
ORDER BY states DESC, affiliates DESC
