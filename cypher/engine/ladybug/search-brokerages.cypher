// The brokerage rows of every credential's AFFILIATED_WITH brokerage, for the search index's
// brokerage filter (src/search/search-index.ts): its folded name, with no dates (always).
MATCH (c:LicenseCredential)-[:AFFILIATED_WITH]->(bb:Brokerage)
WHERE bb.f_name IS NOT NULL
RETURN c.state AS state, c.id AS id, CAST(NULL AS STRING) AS effective_from, CAST(NULL AS STRING) AS effective_to, bb.f_name AS names
