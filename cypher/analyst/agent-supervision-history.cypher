// An agent's supervision history: every supervising relationship of the licence
// $state / $license_number, oldest first, with who supervised and when.
MATCH (a:LicenseCredential {state: $state, license_number: $license_number})<-[r:SUPERVISES]-(s:LicenseCredential)
RETURN s.license_number AS supervisor_license_number, s.full_name AS supervisor_name,
       s.business_name AS supervisor_business_name, r.relationship_type AS relationship_type,
       r.affiliate_role AS affiliate_role, r.effective_from AS effective_from, r.effective_to AS effective_to
ORDER BY effective_from, supervisor_license_number
