// Neo4j, in a refresh run of generation $g: engine/ladybug/refresh/reopen-links.cypher, as a version of each ended
// link open again from $g (the ended one ends at $g). $rows: supervisor_id, affiliate_id,
// relationship_type, effective_from, affiliate_role, source.
// :param g => 1
UNWIND $rows AS r
MATCH (s:LicenseCredential {id: r.supervisor_id})-[e:SUPERVISES]->(a:LicenseCredential {id: r.affiliate_id})
WHERE e.vt IS NULL AND e.relationship_type = r.relationship_type AND e.effective_from = date(r.effective_from)
CREATE (s)-[c:SUPERVISES]->(a)
SET c = properties(e), c.vf = $g, c.effective_to = NULL, c.affiliate_role = r.affiliate_role, c.source = r.source
SET e.vt = $g
RETURN s.id AS supervisor_id, a.id AS affiliate_id, c.relationship_type AS relationship_type
