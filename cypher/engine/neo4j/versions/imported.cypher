// Neo4j: an import has ended: its rows were written in place, so the search indexes of every
// process export the graph again (versions/search-version.cypher).
MERGE (s:Snapshot {id: 'graph'})
  ON CREATE SET s.generation = 0
SET s.imports = coalesce(s.imports, 0) + 1
