// Moves credentials to the licensee the source now names. $rows: maps with id and licensee_id,
// entity_type, display_name, licensee_key; run after detach-other-holders removed the old link.
UNWIND $rows AS r
MATCH (c:LicenseCredential {id: r.id})
MERGE (l:Licensee {id: r.licensee_id})
SET l.entity_type = r.entity_type, l.display_name = r.display_name, l.licensee_key = r.licensee_key
CREATE (l)-[:HOLDS]->(c)
