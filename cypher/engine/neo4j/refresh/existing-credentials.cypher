// Neo4j: refresh/existing-credentials.cypher, each credential's snapshot date as published
// ($published: a touch's pending pair counts once published).
// :param state => 'FL'
// :param published => 0
MATCH (j:Jurisdiction {code: $state})<-[:IN_JURISDICTION]-(c:LicenseCredential)
OPTIONAL MATCH (l:Licensee)-[:HOLDS]->(c)
RETURN collect(c.id) AS ids, collect(coalesce(l.id, '')) AS licensee_ids,
       collect(coalesce(c.source, '')) AS sources, collect(coalesce(c.row_hash, '')) AS row_hashes,
       collect(coalesce(CASE WHEN c.sg <= $published THEN c.s_snapshot_date ELSE c.snapshot_date END, date('1900-01-01'))) AS snapshot_dates,
       collect(coalesce(c.left_source_on, date('1900-01-01'))) AS left_dates
