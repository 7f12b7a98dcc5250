// Neo4j: what the search index's rows depend on (src/graph/neo4j/search-source.ts): the store (the
// snapshot node's element id names its database), the published generation, and how many imports
// have ended, since an import writes in place and publishes no generation (nulls and 0 on a new store).
OPTIONAL MATCH (s:Snapshot {id: 'graph'})
RETURN elementId(s) AS store, coalesce(s.generation, 0) AS generation, coalesce(s.imports, 0) AS imports
