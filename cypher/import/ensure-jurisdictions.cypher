// Creates a jurisdiction, not yet described, for states that credentials name before any
// jurisdictions.csv row did. $rows: maps with state and name.
UNWIND $rows AS r
MERGE (j:Jurisdiction {code: r.state})
ON CREATE SET j.name = r.name, j.status = 'active', j.relationship_coverage = 'not_yet_ingested',
    j.record_count = 0, j.active_record_count = 0, j.is_demo = false
