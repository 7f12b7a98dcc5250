// Neo4j: the states whose credentials a refresh run writes ($states, and those of the credentials
// $ids) have their name postings made after it is published (NoGrams, postings-done.cypher):
// until then their name searches read the full-text index (search-grams.cypher gives no row).
// :param states => ['FL']
// :param ids => []
CALL () {
  UNWIND $states AS code
  RETURN code
  UNION
  UNWIND $ids AS id
  MATCH (c:LicenseCredential {id: id})
  RETURN c.state AS code
}
MATCH (j:Jurisdiction {code: code})
SET j.name_grams_pending = true
