// Every jurisdiction with its coverage metadata, maintained counts and source.
MATCH (j:Jurisdiction)
OPTIONAL MATCH (s:Source)-[:PUBLISHES]->(j)
RETURN j.code AS state, j.name AS name, j.status AS status,
       j.refresh_frequency AS refresh_frequency, j.record_count AS record_count,
       j.active_record_count AS active_record_count, j.last_updated AS last_updated,
       j.relationship_coverage AS relationship_coverage,
       j.relationship_coverage_notes AS relationship_coverage_notes,
       s.id AS source_id, s.name AS source_name, s.url AS source_url, s.format AS source_format,
       s.last_import_at AS source_last_import_at, s.last_import_rows AS source_last_import_rows,
       s.last_snapshot_date AS source_last_snapshot_date, s.last_run AS source_last_run
ORDER BY state
