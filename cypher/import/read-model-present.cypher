// One credential with a supervision read model, if any: none in a graph with relationships means
// the graph was written before the read models existed. No parameters.
MATCH (c:LicenseCredential)
WHERE c.sup IS NOT NULL
RETURN c.id AS id
LIMIT 1
