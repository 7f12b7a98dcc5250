// Licences supervised on $as_of (ISO date) by a licence that is expired, inactive or suspended,
// or whose expiration date has passed by then.
MATCH (s:LicenseCredential)-[r:SUPERVISES]->(a:LicenseCredential)
WHERE r.effective_from <= date($as_of) AND (r.effective_to IS NULL OR r.effective_to > date($as_of)) AND (s.status_normalized IN ['expired', 'inactive', 'suspended'] OR s.expiration_date < date($as_of))
RETURN a.state AS state, a.license_number AS license_number, a.full_name AS name,
       s.license_number AS supervisor_license_number, s.status AS supervisor_status,
       r.relationship_type AS relationship_type, r.effective_from AS effective_from
ORDER BY state, license_number
