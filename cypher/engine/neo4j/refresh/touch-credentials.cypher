// Neo4j, in a refresh run of generation $g: credentials listed again unchanged. Their new snapshot
// date, verification time and notes wait beside the published ones (sg: the generation they belong to)
// until the run is published; readers take them from generation sg on. A pair an earlier run
// published ($published) becomes the credential's own first; one a run that died left is dropped.
// $rows: maps with id, snapshot_date (ISO date), last_verified, data_source_notes.
// :param g => 1
// :param published => 0
UNWIND $rows AS r
MATCH (c:LicenseCredential {id: r.id}) USING INDEX c:LicenseCredential(id)
WITH r, c, CASE WHEN c.sg <= $published THEN c.sg END AS sgp, CASE WHEN c.tg <= $published THEN c.tg WHEN c.tg0 <= $published THEN c.tg0 END AS tgp
WITH r, c, sgp, CASE WHEN tgp > coalesce(sgp, -1) THEN COLLECT { MATCH (st:TouchStamp {g: tgp}) RETURN [st.snapshot_date, st.last_verified, st.note] }[0] END AS stamp
SET c.snapshot_date = CASE WHEN stamp IS NOT NULL THEN stamp[0] WHEN sgp IS NOT NULL THEN c.s_snapshot_date ELSE c.snapshot_date END,
    c.last_verified = CASE WHEN stamp IS NOT NULL THEN stamp[1] WHEN sgp IS NOT NULL THEN c.s_last_verified ELSE c.last_verified END,
    c.data_source_notes = CASE WHEN stamp IS NOT NULL THEN [stamp[2]] + (CASE WHEN sgp IS NOT NULL THEN c.s_notes ELSE c.data_source_notes END)[1..] WHEN sgp IS NOT NULL THEN c.s_notes ELSE c.data_source_notes END
REMOVE c.tg, c.tg0
SET c.sg = $g, c.s_snapshot_date = date(r.snapshot_date), c.s_last_verified = r.last_verified, c.s_notes = r.data_source_notes
