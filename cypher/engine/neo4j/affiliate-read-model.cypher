// Neo4j: engine/ladybug/affiliate-read-model.cypher with Neo4j's functions; `sup` is a list of
// the tab-joined relationships (Neo4j stores lists; LadybugDB reads one string faster).
MATCH (c:LicenseCredential)
WHERE c.state IN $states
OPTIONAL MATCH (s:LicenseCredential)-[r:SUPERVISES]->(c)
WITH c, collect(s.id + '\t' + r.affiliate_role + '\t' + r.relationship_type + '\t' + toString(r.effective_from) + '\t' + coalesce(toString(r.effective_to), '')) AS sup
SET c.sup = CASE WHEN size(sup) = 0 THEN null ELSE sup END
