// Neo4j: the NAME_GRAM postings of the credentials $ids made to match their names: one
// relationship from the credential to itself per distinct three-letter piece of a word of its
// folded names, once among all its names (field '*': a name term's) and once per name it is in
// (f first, l last, b business: a term of that field's), keyed k = state, U+0000, field, piece,
// U+0000, sort key, so that the relationship index on k lists a state's credentials holding a
// piece in name order (search-grams.cypher). The same keys as cypher/schema/neo4j.cypher builds
// and src/graph/neo4j/keys.ts writes.
// :param ids => ['FL|CQ0000001']
UNWIND $ids AS id
MATCH (c:LicenseCredential {id: id})
WITH c, [['*', coalesce(c.f_full, '') + ' ' + coalesce(c.f_first, '') + ' ' + coalesce(c.f_last, '') + ' ' + coalesce(c.f_business, '')], ['f', coalesce(c.f_first, '')], ['l', coalesce(c.f_last, '')], ['b', coalesce(c.f_business, '')]] AS names
WITH c, reduce(keys = [], n IN names | keys + reduce(acc = [], w IN [w IN split(n[1], ' ') WHERE size(w) >= 3] | acc + [i IN range(0, size(w) - 3) | c.state + '\u0000' + n[0] + substring(w, i, 3) + '\u0000' + c.sort_key])) AS wanted
// Dropped and made again, by expansion from the credential alone: a lookup of each key (by the
// index on k) was replanned, once the graph held a batch of postings, into a plan that read
// every posting per credential, and a 8,514-row import stalled.
CALL (c) {
  MATCH (c)-[p:NAME_GRAM]->()
  DELETE p
}
UNWIND wanted AS k
WITH DISTINCT c, k
CREATE (c)-[:NAME_GRAM {k: k}]->(c)
