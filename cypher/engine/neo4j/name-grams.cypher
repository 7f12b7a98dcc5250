// Neo4j: the NAME_GRAM postings of the credentials $ids made to match their names: one
// relationship from the credential to itself per distinct three-letter piece of a word of its
// folded names (full, first, last, business), keyed k = state, U+0000, piece, U+0000, sort key,
// so that the relationship index on k lists a state's credentials holding a piece in name order
// (search-grams.cypher). The same key as cypher/schema/neo4j.cypher builds.
// :param ids => ['FL|CQ0000001']
UNWIND $ids AS id
MATCH (c:LicenseCredential {id: id})
WITH c, [w IN split(coalesce(c.f_full, '') + ' ' + coalesce(c.f_first, '') + ' ' + coalesce(c.f_last, '') + ' ' + coalesce(c.f_business, ''), ' ') WHERE size(w) >= 3] AS words
WITH c, reduce(keys = [], w IN words | keys + [i IN range(0, size(w) - 3) | c.state + '\u0000' + substring(w, i, 3) + '\u0000' + c.sort_key]) AS wanted
CALL (c, wanted) {
  MATCH (c)-[p:NAME_GRAM]->(c) WHERE NOT p.k IN wanted
  DELETE p
}
CALL (c, wanted) {
  UNWIND wanted AS k
  WITH DISTINCT k
  WHERE NOT EXISTS { MATCH (c)-[q:NAME_GRAM]->(c) WHERE q.k = k }
  CREATE (c)-[:NAME_GRAM {k: k}]->(c)
}
