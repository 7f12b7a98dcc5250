// A broker's affiliates on $as_of (ISO date; today: :param as_of => toString(date())) from the licence
// $state / $license_number (canonical form, e.g. 'TX', '9089631-B'), newest first.
MATCH (b:LicenseCredential {state: $state, license_number: $license_number})-[r:SUPERVISES]->(a:LicenseCredential)
WHERE r.effective_from <= date($as_of) AND (r.effective_to IS NULL OR r.effective_to > date($as_of))
RETURN a.license_number AS license_number, a.full_name AS full_name, a.license_type AS license_type,
       a.status AS status, r.affiliate_role AS affiliate_role, r.relationship_type AS relationship_type,
       r.effective_from AS effective_from
ORDER BY effective_from DESC, license_number
