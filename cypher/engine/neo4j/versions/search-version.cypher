// Neo4j: what the search index's rows depend on besides each state's token
// (versions/search-states.cypher, read between two of these): the store (its id and creation time: an offline
// load makes a new one), the published generation and the last one whose replaced versions were
// collected, and how many import batches have written in place (nulls and 0 on a new store).
CALL db.info() YIELD id, creationDate
OPTIONAL MATCH (s:Snapshot {id: 'graph'})
RETURN id + '@' + toString(creationDate) AS store, coalesce(s.generation, 0) AS generation, coalesce(s.imports, 0) AS imports,
       coalesce(s.collected, 0) AS collected
