// Neo4j, in a refresh run of generation $g: a new version of each credential of $ids that the run
// changes (a copy, which the run's writes then change), the one readers see until it is published
// kept as Superseded (it ends at $g). The copy leaves out the p_* values a collection promoted
// (collect.cypher) and takes the credential's relationships: its holder, jurisdiction and
// brokerage, and a version of each SUPERVISES relationship from $g (the old ones end there).
// The snapshot a touch left pending is the copy's own once published ($published).
// Gives the ids of the affiliates and supervisors whose SUPERVISES_IN_FORCE copies follow.
// A credential the run created (a version from $g) is changed in place: no row.
// :param ids => ['FL|CQ0000001']
// :param g => 1
// :param published => 0
UNWIND $ids AS id
MATCH (h:LicenseCredential {id: id}) USING INDEX h:LicenseCredential(id)
WHERE h.vf IS NULL OR h.vf < $g
REMOVE h:LicenseCredential
SET h:Superseded:Versioned, h.vt = $g
CREATE (n:LicenseCredential:Versioned)
SET n = properties(h)
WITH h, n, CASE WHEN h.sg <= $published THEN h.sg END AS sgp, CASE WHEN h.tg <= $published THEN h.tg WHEN h.tg0 <= $published THEN h.tg0 END AS tgp
WITH h, n, sgp, CASE WHEN tgp > coalesce(sgp, -1) THEN COLLECT { MATCH (st:TouchStamp {g: tgp}) RETURN [st.snapshot_date, st.last_verified, st.note] }[0] END AS stamp
SET n.vf = $g,
    n.snapshot_date = CASE WHEN stamp IS NOT NULL THEN stamp[0] WHEN sgp IS NOT NULL THEN h.s_snapshot_date ELSE h.snapshot_date END,
    n.last_verified = CASE WHEN stamp IS NOT NULL THEN stamp[1] WHEN sgp IS NOT NULL THEN h.s_last_verified ELSE h.last_verified END,
    n.data_source_notes = CASE WHEN stamp IS NOT NULL THEN [stamp[2]] + (CASE WHEN sgp IS NOT NULL THEN h.s_notes ELSE h.data_source_notes END)[1..] WHEN sgp IS NOT NULL THEN h.s_notes ELSE h.data_source_notes END
REMOVE n.vt, n.tg, n.tg0, n.sg, n.s_snapshot_date, n.s_last_verified, n.s_notes, n.promoted_at, n.pg, n.p_license_number_display, n.p_license_type_display, n.p_status, n.p_status_normalized, n.p_issue_date, n.p_expiration_date, n.p_address_kind, n.p_address_line1, n.p_address_line2, n.p_address_city, n.p_address_county, n.p_address_region, n.p_address_postal_code, n.p_address_country, n.p_row_hash, n.p_source, n.p_left_source_on
WITH h, n
CALL (h, n) {
  MATCH (l:Licensee)-[:HOLDS]->(h)
  CREATE (l)-[:HOLDS]->(n)
}
CALL (h, n) {
  MATCH (h)-[:IN_JURISDICTION]->(j:Jurisdiction)
  CREATE (n)-[:IN_JURISDICTION]->(j)
}
CALL (h, n) {
  MATCH (h)-[a:AFFILIATED_WITH]->(b:Brokerage)
  CREATE (n)-[c:AFFILIATED_WITH]->(b)
  SET c = properties(a)
}
CALL (h, n) {
  MATCH (h)-[e:SUPERVISES]->(x)
  WHERE e.vt IS NULL
  WITH e, CASE WHEN x = h THEN n ELSE x END AS y
  CREATE (n)-[c:SUPERVISES]->(y)
  SET c = properties(e), c.vf = $g
  SET e.vt = $g
  RETURN collect(y.id) AS affiliates
}
CALL (h, n) {
  MATCH (x)-[e:SUPERVISES]->(h)
  WHERE e.vt IS NULL AND x <> h
  CREATE (x)-[c:SUPERVISES]->(n)
  SET c = properties(e), c.vf = $g
  SET e.vt = $g
  RETURN count(e) AS supervisors
}
RETURN n.id AS id, affiliates
