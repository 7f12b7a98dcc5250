// The brokerage rows of every credential's brokerage-type SUPERVISES, for the search index's
// brokerage filter (src/search/search-index.ts): its dates and the supervisor's folded names. The
// filter itself compares the dates with the day of the search. The affiliated brokerages are
// search-brokerages.cypher.
// :param types => ['sponsoring_broker', 'employing_broker', 'main_office', 'supervising_broker']
MATCH (bs:LicenseCredential)-[br:SUPERVISES]->(c:LicenseCredential)
WHERE br.relationship_type IN $types AND br.effective_from IS NOT NULL
RETURN c.state AS state, c.id AS id, CAST(br.effective_from AS STRING) AS effective_from, CAST(br.effective_to AS STRING) AS effective_to,
       concat(coalesce(bs.f_full, ''), ' ', coalesce(bs.f_business, '')) AS names
