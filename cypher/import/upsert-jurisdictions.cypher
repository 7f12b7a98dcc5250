// Upserts jurisdictions with their coverage metadata and source. $rows: maps with state, name,
// status, refresh_frequency, relationship_coverage, relationship_coverage_notes, is_demo,
// source_id, source_name, source_url, source_format.
UNWIND $rows AS r
MERGE (j:Jurisdiction {code: r.state})
SET j.name = r.name, j.status = r.status, j.refresh_frequency = r.refresh_frequency,
    j.relationship_coverage = r.relationship_coverage,
    j.relationship_coverage_notes = r.relationship_coverage_notes, j.is_demo = r.is_demo
MERGE (s:Source {id: r.source_id})
SET s.state = r.state, s.name = r.source_name, s.url = r.source_url, s.format = r.source_format
MERGE (s)-[:PUBLISHES]->(j)
