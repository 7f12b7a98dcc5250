// LadybugDB only: the licensees of new credentials, created or updated, as a bulk load.
// Columns: licensee_id, entity_type, display_name, licensee_key.
// @load
MERGE (l:Licensee {id: licensee_id})
SET l.entity_type = entity_type, l.display_name = display_name, l.licensee_key = licensee_key
