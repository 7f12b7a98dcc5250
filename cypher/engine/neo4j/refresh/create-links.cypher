// Neo4j, in a refresh run of generation $g: refresh/create-links.cypher, each new SUPERVISES
// relationship a version from $g. $rows: supervisor_id, affiliate_id, relationship_type,
// effective_from, affiliate_role, source.
// :param g => 1
UNWIND $rows AS r
MATCH (s:LicenseCredential {id: r.supervisor_id})
MATCH (a:LicenseCredential {id: r.affiliate_id})
CREATE (s)-[:SUPERVISES {relationship_type: r.relationship_type, effective_from: date(r.effective_from), affiliate_role: r.affiliate_role, source: r.source, vf: $g}]->(a)
