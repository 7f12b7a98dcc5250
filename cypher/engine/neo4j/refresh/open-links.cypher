// Neo4j: refresh/open-links.cypher, the current version of each relationship (a version a
// published run ended waits for no reader before it goes: versions.ts).
// :param state => 'TX'
// :param source => 'tx-trec'
MATCH (j:Jurisdiction {code: $state})<-[:IN_JURISDICTION]-(a:LicenseCredential)<-[r:SUPERVISES]-(s:LicenseCredential)
WHERE r.source = $source AND r.vt IS NULL
RETURN collect(s.id) AS supervisor_ids, collect(a.id) AS affiliate_ids,
       collect(r.relationship_type) AS relationship_types, collect(coalesce(r.affiliate_role, '')) AS affiliate_roles,
       collect(r.effective_from) AS effective_froms,
       collect(coalesce(r.effective_to, date('1900-01-01'))) AS effective_tos
