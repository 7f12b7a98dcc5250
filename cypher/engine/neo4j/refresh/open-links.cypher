// Neo4j: engine/ladybug/refresh/open-links.cypher as one row per relationship (see existing-credentials.cypher),
// the current version of each (a version a published run ended waits for no reader before it
// goes: versions.ts).
// :param state => 'TX'
// :param source => 'tx-trec'
MATCH (j:Jurisdiction {code: $state})<-[:IN_JURISDICTION]-(a:LicenseCredential)<-[r:SUPERVISES]-(s:LicenseCredential)
WHERE r.source = $source AND r.vt IS NULL
RETURN s.id AS supervisor_id, a.id AS affiliate_id, r.relationship_type AS relationship_type,
       r.affiliate_role AS affiliate_role, r.effective_from AS effective_from, r.effective_to AS effective_to
