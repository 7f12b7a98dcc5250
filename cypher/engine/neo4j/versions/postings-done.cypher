// Neo4j: the credentials $ids have their name postings; a state whose name searches read the
// full-text index meanwhile (name_grams_pending) reads the postings again once none of its
// current credentials waits for them and it holds no version readers do not see (the postings'
// totals count the full-text index, which holds every version: search-grams.cypher) and no
// pending value (the index holds the published status: overlay-credentials.cypher).
// :param ids => ['FL|CQ0000001']
// :param published => 1
UNWIND $ids AS id
MATCH (c:LicenseCredential:NoGrams {id: id})
REMOVE c:NoGrams
WITH count(*) AS done
MATCH (j:Jurisdiction) WHERE j.name_grams_pending
  AND NOT EXISTS { MATCH (c:NoGrams) WHERE c.state = j.code AND c:LicenseCredential }
  AND NOT EXISTS { MATCH (c:Superseded) WHERE c.state = j.code }
  AND NOT EXISTS { MATCH (c:Versioned) WHERE c.state = j.code AND c.vf > $published }
  AND NOT EXISTS { MATCH (c:Pending) WHERE c.state = j.code }
REMOVE j.name_grams_pending
