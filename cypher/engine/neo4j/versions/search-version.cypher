// Neo4j: what the search index's rows depend on (src/graph/neo4j/search-source.ts): the store (the
// snapshot node's element id names its database), the published generation, how many imports
// have ended (an import writes in place and publishes no generation), and each jurisdiction's
// rows_version, which the runs that change its rows move (nulls and 0 on a new store).
OPTIONAL MATCH (s:Snapshot {id: 'graph'})
CALL () {
  MATCH (j:Jurisdiction)
  RETURN collect([j.code, j.rows_version]) AS states
}
RETURN elementId(s) AS store, coalesce(s.generation, 0) AS generation, coalesce(s.imports, 0) AS imports, states
