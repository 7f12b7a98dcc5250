// Neo4j: import/refresh-counts.cypher as generation $g shows the credentials, in the transaction
// that publishes it (their pending statuses count: overlay-credentials.cypher). Moves the state's
// rows_version: search indexes read its rows again (versions/search-version.cypher).
// :param g => 1
// $rows: maps with state and rows (credential rows imported); $now: ISO timestamp.
UNWIND $rows AS r
MATCH (j:Jurisdiction {code: r.state})
OPTIONAL MATCH (j)<-[:IN_JURISDICTION]-(c:LicenseCredential)
WITH j, r, count(c) AS total, sum(CASE WHEN (CASE WHEN c.pg <= $g THEN c.p_status_normalized ELSE c.status_normalized END) = 'active' THEN 1 ELSE 0 END) AS active
SET j.record_count = total, j.active_record_count = active, j.last_updated = $now,
    j.rows_version = coalesce(j.rows_version, 0) + 1
WITH j, r
OPTIONAL MATCH (s:Source)-[:PUBLISHES]->(j)
SET s.last_import_at = $now, s.last_import_rows = r.rows
