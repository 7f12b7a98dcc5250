// A state's credentials, from every source, with what a refresh compares, as parallel lists in
// one row (a row through the LadybugDB Node binding costs ~35 µs; a list element next to
// nothing). Nulls are coalesced so the lists stay aligned. $state: code.
MATCH (j:Jurisdiction {code: $state})<-[:IN_JURISDICTION]-(c:LicenseCredential)
OPTIONAL MATCH (l:Licensee)-[:HOLDS]->(c)
RETURN collect(c.id) AS ids, collect(coalesce(l.id, '')) AS licensee_ids,
       collect(coalesce(c.source, '')) AS sources, collect(coalesce(c.row_hash, '')) AS row_hashes,
       collect(coalesce(c.snapshot_date, date('1900-01-01'))) AS snapshot_dates,
       collect(coalesce(c.left_source_on, date('1900-01-01'))) AS left_dates
