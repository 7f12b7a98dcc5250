// Neo4j: a batch of current credentials without name postings (NoGrams), whose postings
// name-grams.cypher then makes.
// :param limit => 2000
MATCH (c:LicenseCredential:NoGrams)
RETURN c.id AS id
LIMIT $limit
