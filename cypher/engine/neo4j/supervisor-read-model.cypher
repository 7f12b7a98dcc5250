// Neo4j: engine/ladybug/supervisor-read-model.cypher with Neo4j's functions; `aff` is a list.
MATCH (s:LicenseCredential)-[r:SUPERVISES]->(a:LicenseCredential)
WHERE s.state IN $states
WITH s, collect(a.sort_key + '\t' + a.id + '\t' + r.relationship_type + '\t' + toString(r.effective_from) + '\t' + r.affiliate_role + '\t' + coalesce(toString(r.effective_to), '')) AS aff
SET s.aff = aff
