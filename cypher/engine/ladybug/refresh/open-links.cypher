// Supervision relationships a source has put into a state's credentials, open and ended, as
// parallel lists in one row (see existing-credentials.cypher). $state: code; $source: source id.
MATCH (j:Jurisdiction {code: $state})<-[:IN_JURISDICTION]-(a:LicenseCredential)<-[r:SUPERVISES]-(s:LicenseCredential)
WHERE r.source = $source
RETURN collect(s.id) AS supervisor_ids, collect(a.id) AS affiliate_ids,
       collect(r.relationship_type) AS relationship_types, collect(coalesce(r.affiliate_role, '')) AS affiliate_roles,
       collect(r.effective_from) AS effective_froms,
       collect(coalesce(r.effective_to, date('1900-01-01'))) AS effective_tos
