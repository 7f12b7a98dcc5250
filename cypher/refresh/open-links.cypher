// Supervision relationships a source has put into a state's credentials: the open ones, and the
// ended ones a refresh may reopen. $state: jurisdiction code; $source: source id.
MATCH (j:Jurisdiction {code: $state})<-[:IN_JURISDICTION]-(a:LicenseCredential)<-[r:SUPERVISES]-(s:LicenseCredential)
WHERE r.source = $source
RETURN s.id AS supervisor_id, a.id AS affiliate_id, r.relationship_type AS relationship_type,
       r.affiliate_role AS affiliate_role, r.effective_from AS effective_from, r.effective_to AS effective_to
