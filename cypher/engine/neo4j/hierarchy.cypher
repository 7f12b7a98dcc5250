// Neo4j: the upward walk of each credential of $ids on a day: one variable-length walk up
// SUPERVISES over relationships in force on $day, at most 26 hops (the API's deepest max_depth and
// one more, to tell a truncated walk); each relationship is used once per path, so a cycle ends
// its path. Rows name the credential walked from (start_id): one for the credential itself (no
// relationship; no row at all when it is not on file), then one for every relationship the walk
// crossed, once, with its supervisor; each row's record holds public fields and coverage (see
// licensees). The service lays them out in levels.
// :param ids => ['TX|0123456-SA']
// :param day => '2026-11-25'
// :param g => 0
UNWIND $ids AS id
CALL (id) {
  MATCH (c:LicenseCredential {id: id}) RETURN c
  UNION
  MATCH (c:Superseded {id: id}) RETURN c
}
WITH c WHERE coalesce(c.vf, 0) <= $g AND coalesce(c.vt, $g + 1) > $g
CALL (c) {
  OPTIONAL MATCH p = (c)(()<-[r:SUPERVISES WHERE coalesce(r.vf, 0) <= $g AND coalesce(r.vt, $g + 1) > $g AND r.effective_from <= date($day) AND (r.effective_to IS NULL OR r.effective_to > date($day))]-()){1,26}
  UNWIND coalesce(relationships(p), []) AS link
  RETURN collect(DISTINCT link) AS links
}
// The null entry stands for the credential: one projection serves it and the supervisors.
UNWIND [null] + links AS link
WITH c, link, coalesce(startNode(link), c) AS s
RETURN c.id AS start_id, endNode(link).id AS affiliate_id, link.affiliate_role AS affiliate_role, link.relationship_type AS relationship_type,
       link.effective_from AS effective_from, link.effective_to AS effective_to,
       s {.id, .state, .license_number, .license_number_display, .license_type, .license_type_display, .status, .status_normalized, .entity_type, .full_name, .first_name, .middle_name, .last_name, .suffix, .business_name, .issue_date, .expiration_date, .address_kind, .address_line1, .address_line2, .address_city, .address_county, .address_region, .address_postal_code, .address_country, .source, snapshot_date: CASE WHEN s.sg <= $g THEN s.s_snapshot_date ELSE s.snapshot_date END, last_verified: CASE WHEN s.sg <= $g THEN s.s_last_verified ELSE s.last_verified END, data_source_notes: CASE WHEN s.sg <= $g THEN s.s_notes ELSE s.data_source_notes END,
         pending: CASE WHEN s.pg <= $g THEN s {.p_license_number_display, .p_license_type_display, .p_status, .p_status_normalized, .p_issue_date, .p_expiration_date, .p_address_kind, .p_address_line1, .p_address_line2, .p_address_city, .p_address_county, .p_address_region, .p_address_postal_code, .p_address_country, .p_source} END,
         relationship_coverage: [(s)-[:IN_JURISDICTION]->(j:Jurisdiction) | j.relationship_coverage][0], context_brokerage: [(s)-[:AFFILIATED_WITH]->(b:Brokerage) | b.name][0]} AS record
