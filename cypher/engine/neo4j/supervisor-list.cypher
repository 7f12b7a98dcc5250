// Neo4j: engine/ladybug/supervisor-list.cypher with Neo4j's functions; `entries` is a list.
MATCH (s:LicenseCredential)-[r:SUPERVISES]->(c:LicenseCredential)
WHERE c.state = $state
WITH c, collect(s.id + '\t' + r.affiliate_role + '\t' + r.relationship_type + '\t' + toString(r.effective_from) + '\t' + coalesce(toString(r.effective_to), '')) AS entries
CREATE (:SupervisorList {id: c.id, state: c.state, entries: entries})
