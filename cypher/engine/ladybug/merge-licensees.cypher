// LadybugDB only: licensees on file that new credentials hold, updated from the rows, as a bulk
// load (create-licensees creates the others at the end of the run).
// Columns: id, entity_type, display_name, licensee_key.
// @load
MERGE (l:Licensee {id: id})
SET l.entity_type = entity_type, l.display_name = display_name, l.licensee_key = licensee_key
