// Neo4j: an import has ended: its rows were written in place, so the search indexes of every
// process read its states $states again (versions/search-version.cypher).
// :param states => ['TX']
MERGE (s:Snapshot {id: 'graph'})
  ON CREATE SET s.generation = 0
SET s.imports = coalesce(s.imports, 0) + 1
WITH s
UNWIND $states AS code
MATCH (j:Jurisdiction {code: code})
SET j.rows_version = coalesce(j.rows_version, 0) + 1
