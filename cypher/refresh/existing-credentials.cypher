// The credentials a source has put in a state, with what a refresh compares.
// $state: jurisdiction code; $source: source id.
MATCH (j:Jurisdiction {code: $state})<-[:IN_JURISDICTION]-(c:LicenseCredential)
WHERE c.source = $source
OPTIONAL MATCH (l:Licensee)-[:HOLDS]->(c)
RETURN c.id AS id, l.id AS licensee_id, c.row_hash AS row_hash, c.snapshot_date AS snapshot_date,
       c.left_source_on AS left_source_on
