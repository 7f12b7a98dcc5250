// Supervision relationships a source has open into a state's credentials.
// $state: jurisdiction code; $source: source id.
MATCH (j:Jurisdiction {code: $state})<-[:IN_JURISDICTION]-(a:LicenseCredential)<-[r:SUPERVISES]-(s:LicenseCredential)
WHERE r.source = $source AND r.effective_to IS NULL
RETURN s.id AS supervisor_id, a.id AS affiliate_id, r.relationship_type AS relationship_type,
       r.affiliate_role AS affiliate_role, r.effective_from AS effective_from
