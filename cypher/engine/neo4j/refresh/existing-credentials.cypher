// Neo4j: engine/ladybug/refresh/existing-credentials.cypher as one row per credential (the driver decodes a
// 450,000-element list about six times slower than as many rows), with its snapshot date as
// published ($published: a touch's pending pair counts once published).
// :param state => 'FL'
// :param published => 0
MATCH (j:Jurisdiction {code: $state})<-[:IN_JURISDICTION]-(c:LicenseCredential)
OPTIONAL MATCH (l:Licensee)-[:HOLDS]->(c)
WITH c, l, CASE WHEN c.sg <= $published THEN c.sg END AS sgv, CASE WHEN c.tg <= $published THEN c.tg WHEN c.tg0 <= $published THEN c.tg0 END AS tgv
WITH c, l, sgv, CASE WHEN tgv > coalesce(sgv, -1) THEN COLLECT { MATCH (st:TouchStamp {g: tgv}) RETURN st.snapshot_date }[0] END AS stamped
RETURN c.id AS id, l.id AS licensee_id, c.source AS source, c.row_hash AS row_hash,
       CASE WHEN stamped IS NOT NULL THEN stamped WHEN sgv IS NOT NULL THEN c.s_snapshot_date ELSE c.snapshot_date END AS snapshot_date,
       c.left_source_on AS left_source_on
