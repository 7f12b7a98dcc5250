// Neo4j, in a refresh run of generation $g: engine/ladybug/refresh/delete-links.cypher, each link ending at $g
// (it is removed once no reader sees it). $rows: supervisor_id, affiliate_id, relationship_type,
// effective_from.
// :param g => 1
UNWIND $rows AS r
MATCH (s:LicenseCredential {id: r.supervisor_id})-[e:SUPERVISES]->(a:LicenseCredential {id: r.affiliate_id})
WHERE e.vt IS NULL AND e.relationship_type = r.relationship_type AND e.effective_from = date(r.effective_from) AND e.effective_to IS NULL
SET e.vt = $g
