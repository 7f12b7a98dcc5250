// Licences currently supervised by a licence that is expired, inactive or suspended.
MATCH (s:LicenseCredential)-[r:SUPERVISES]->(a:LicenseCredential)
WHERE r.effective_to IS NULL AND s.status_normalized IN ['expired', 'inactive', 'suspended']
RETURN a.state AS state, a.license_number AS license_number, a.full_name AS name,
       s.license_number AS supervisor_license_number, s.status AS supervisor_status,
       r.relationship_type AS relationship_type, r.effective_from AS effective_from
ORDER BY state, license_number
