// Neo4j: inside a refresh, the NAME_GRAM postings of the credentials $ids dropped and their
// states' postings marked pending: a refresh's one transaction cannot also hold theirs (an
// 8,514-row state went past 512 MB), so until they are made again (name-grams.cypher) searches
// in those states read the full-text index (search-grams.cypher gives no row).
// :param ids => ['FL|CQ0000001']
UNWIND $ids AS id
MATCH (c:LicenseCredential {id: id})
CALL (c) {
  MATCH (c)-[p:NAME_GRAM]->()
  DELETE p
}
WITH DISTINCT c.state AS state
MATCH (j:Jurisdiction {code: state})
SET j.name_grams_pending = true
