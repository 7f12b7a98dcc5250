// Whether the import unit of run $id landed (see mark-run.cypher).
MATCH (r:ImportRun {id: $id})
RETURN r.id AS id
