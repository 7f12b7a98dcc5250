// Neo4j: engine/ladybug/affiliate-list.cypher with Neo4j's functions; `entries` is a list.
MATCH (s:LicenseCredential)-[r:SUPERVISES]->(a:LicenseCredential)
WHERE s.state = $state
WITH s, collect(a.sort_key + '\t' + a.id + '\t' + r.relationship_type + '\t' + toString(r.effective_from) + '\t' + r.affiliate_role + '\t' + coalesce(toString(r.effective_to), '') + '\t' + a.license_number + '\t' + coalesce(a.license_type, '') + '\t' + replace(coalesce(a.full_name, ''), '\t', ' ') + '\t' + replace(coalesce(a.business_name, ''), '\t', ' ')) AS entries
CREATE (:AffiliateList {id: s.id, state: s.state, entries: entries})
