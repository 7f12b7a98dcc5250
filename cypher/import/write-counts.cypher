// The record counts of jurisdictions after a first import into a graph without credentials
// (the bulk path), where the rows loaded are the counts: refresh-counts' scan of every credential
// took 10 s at 3M. Stamps the refresh as refresh-counts does.
// $rows: maps with state, rows and active (rows with status_normalized 'active'); $now: ISO timestamp.
UNWIND $rows AS r
MATCH (j:Jurisdiction {code: r.state})
SET j.record_count = r.rows, j.active_record_count = r.active, j.last_updated = $now
WITH j, r
OPTIONAL MATCH (s:Source)-[:PUBLISHES]->(j)
SET s.last_import_at = $now, s.last_import_rows = r.rows
