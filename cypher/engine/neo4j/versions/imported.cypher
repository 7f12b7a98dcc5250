// Neo4j: an import's batch has written the rows of $states in place, in this transaction: the
// search indexes of every process read those states again (versions/search-version.cypher).
// :param states => ['TX']
MERGE (s:Snapshot {id: 'graph'})
  ON CREATE SET s.generation = 0
SET s.imports = coalesce(s.imports, 0) + 1
WITH s
UNWIND $states AS code
MATCH (j:Jurisdiction {code: code})
SET j.rows_version = coalesce(j.rows_version, 0) + 1
