// A state's credentials, from every source, with what a refresh compares. $state: code.
MATCH (j:Jurisdiction {code: $state})<-[:IN_JURISDICTION]-(c:LicenseCredential)
OPTIONAL MATCH (l:Licensee)-[:HOLDS]->(c)
RETURN c.id AS id, l.id AS licensee_id, c.source AS source, c.row_hash AS row_hash,
       c.snapshot_date AS snapshot_date, c.left_source_on AS left_source_on
