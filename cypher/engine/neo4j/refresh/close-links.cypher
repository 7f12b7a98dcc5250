// Neo4j, in a refresh run of generation $g: engine/ladybug/refresh/close-links.cypher, as a version of each link
// that ends on effective_to, from $g (the open one ends at $g). $rows: supervisor_id, affiliate_id,
// relationship_type, effective_from, effective_to.
// :param g => 1
UNWIND $rows AS r
MATCH (s:LicenseCredential {id: r.supervisor_id})-[e:SUPERVISES]->(a:LicenseCredential {id: r.affiliate_id})
WHERE e.vt IS NULL AND e.relationship_type = r.relationship_type AND e.effective_from = date(r.effective_from) AND e.effective_to IS NULL
CREATE (s)-[c:SUPERVISES]->(a)
SET c = properties(e), c.vf = $g, c.effective_to = date(r.effective_to)
SET e.vt = $g
