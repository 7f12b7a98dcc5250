// Neo4j: the upward walk of each credential of $ids on a day: one variable-length walk up
// SUPERVISES over relationships in force on $day, at most 26 hops (the API's deepest max_depth and
// one more, to tell a truncated walk); each relationship is used once per path, so a cycle ends
// its path. Rows name the credential walked from (start_id): one for the credential itself (no
// relationship; no row at all when it is not on file), then one for every relationship the walk
// crossed, once, with its supervisor; each row's record holds public fields and coverage, as a list
// (see licensees). The service lays them out in levels.
// :param ids => ['TX|0123456-SA']
// :param day => '2026-11-25'
// :param g => 0
UNWIND $ids AS id
CALL (id) {
  MATCH (c:LicenseCredential {id: id}) USING INDEX c:LicenseCredential(id) RETURN c
  UNION
  MATCH (c:Superseded {id: id}) USING INDEX c:Superseded(id) RETURN c
}
WITH c WHERE coalesce(c.vf, CASE WHEN c.id IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(c.vt, CASE WHEN c.id IS NULL THEN $g ELSE $g + 1 END) > $g
CALL (c) {
  OPTIONAL MATCH p = (c)(()<-[r:SUPERVISES WHERE coalesce(r.vf, CASE WHEN r.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(r.vt, CASE WHEN r.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g AND r.effective_from <= date($day) AND (r.effective_to IS NULL OR r.effective_to > date($day))]-()){1,26}
  UNWIND coalesce(relationships(p), []) AS link
  RETURN collect(DISTINCT link) AS links
}
// The null entry stands for the credential: one projection serves it and the supervisors.
UNWIND [null] + links AS link
WITH c, link, coalesce(startNode(link), c) AS s
WITH c, link, s, CASE WHEN s.sg <= $g THEN s.sg END AS sgv, CASE WHEN s.tg <= $g THEN s.tg WHEN s.tg0 <= $g THEN s.tg0 END AS tgv
WITH c, link, s, sgv, CASE WHEN tgv > coalesce(sgv, -1) THEN COLLECT { MATCH (st:TouchStamp {g: tgv}) RETURN [st.snapshot_date, st.last_verified, st.note] }[0] END AS stamp
RETURN c.id AS start_id, endNode(link).id AS affiliate_id, link.affiliate_role AS affiliate_role, link.relationship_type AS relationship_type,
       toString(link.effective_from) AS effective_from, toString(link.effective_to) AS effective_to,
       [s.id, s.state, s.license_number, s.license_number_display, s.license_type, s.license_type_display, s.status, s.status_normalized, s.entity_type, s.full_name, s.first_name, s.middle_name, s.last_name, s.suffix, s.business_name,
         toString(s.issue_date), toString(s.expiration_date), s.address_kind, s.address_line1, s.address_line2, s.address_city, s.address_county, s.address_region, s.address_postal_code, s.address_country, s.source,
         toString(CASE WHEN stamp IS NOT NULL THEN stamp[0] WHEN sgv IS NOT NULL THEN s.s_snapshot_date ELSE s.snapshot_date END), CASE WHEN stamp IS NOT NULL THEN stamp[1] WHEN sgv IS NOT NULL THEN s.s_last_verified ELSE s.last_verified END,
         CASE WHEN stamp IS NOT NULL THEN [stamp[2]] + (CASE WHEN sgv IS NOT NULL THEN s.s_notes ELSE s.data_source_notes END)[1..] WHEN sgv IS NOT NULL THEN s.s_notes ELSE s.data_source_notes END,
         [(s)-[:IN_JURISDICTION]->(j:Jurisdiction) | j.relationship_coverage][0], [(s)-[:AFFILIATED_WITH]->(b:Brokerage) | b.name][0],
         CASE WHEN s.pg <= $g THEN [s.p_license_number_display, s.p_license_type_display, s.p_status, s.p_status_normalized, s.p_issue_date, s.p_expiration_date, s.p_address_kind, s.p_address_line1, s.p_address_line2, s.p_address_city, s.p_address_county, s.p_address_region, s.p_address_postal_code, s.p_address_country, s.p_source] END] AS record
