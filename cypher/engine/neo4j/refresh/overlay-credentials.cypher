// Neo4j, in a refresh run of generation $g: credentials whose new values leave their names, keys,
// holder and brokerage link as they were (a new status, expiry, address, source...) keep them pending
// beside the published ones (p_*, pg = $g; the snapshot date, verification time and notes as a
// touch's pair), on the same node: readers take them from generation pg on (docs/graph.md,
// "Versions"), so the credential's relationships are not copied. Gives the ids it took; the
// others get a new version (supersede.cypher). $relinked: ids whose brokerage link is rewritten.
// :param g => 1
// :param published => 0
// :param relinked => []
UNWIND $rows AS r
MATCH (c:LicenseCredential {id: r.id}) USING INDEX c:LicenseCredential(id)
WHERE coalesce(c.vf, 0) < $g AND c.pg IS NULL AND NOT r.id IN $relinked
  AND coalesce(c.license_number, '') = coalesce(r.license_number, '')
  AND coalesce(c.license_type, '') = coalesce(r.license_type, '')
  AND coalesce(c.entity_type, '') = coalesce(r.entity_type, '')
  AND coalesce(c.full_name, '') = coalesce(r.full_name, '')
  AND coalesce(c.first_name, '') = coalesce(r.first_name, '')
  AND coalesce(c.middle_name, '') = coalesce(r.middle_name, '')
  AND coalesce(c.last_name, '') = coalesce(r.last_name, '')
  AND coalesce(c.suffix, '') = coalesce(r.suffix, '')
  AND coalesce(c.business_name, '') = coalesce(r.business_name, '')
  AND coalesce(c.f_full, '') = coalesce(r.f_full, '')
  AND coalesce(c.f_first, '') = coalesce(r.f_first, '')
  AND coalesce(c.f_last, '') = coalesce(r.f_last, '')
  AND coalesce(c.f_business, '') = coalesce(r.f_business, '')
  AND coalesce(c.f_city, '') = coalesce(r.f_city, '')
  AND coalesce(c.sort_key, '') = coalesce(r.sort_key, '')
  AND EXISTS { MATCH (:Licensee {id: r.licensee_id})-[:HOLDS]->(c) }
  AND NOT EXISTS { MATCH (c)-[:AFFILIATED_WITH]->() }
WITH r, c, CASE WHEN c.sg <= $published THEN c.sg END AS sgp, CASE WHEN c.tg <= $published THEN c.tg WHEN c.tg0 <= $published THEN c.tg0 END AS tgp
WITH r, c, sgp, CASE WHEN tgp > coalesce(sgp, -1) THEN COLLECT { MATCH (st:TouchStamp {g: tgp}) RETURN [st.snapshot_date, st.last_verified, st.note] }[0] END AS stamp
SET c:Pending, c.pg = $g,
    c.p_license_number_display = r.license_number_display,
    c.p_license_type_display = r.license_type_display,
    c.p_status = r.status,
    c.p_status_normalized = r.status_normalized,
    c.p_issue_date = date(r.issue_date),
    c.p_expiration_date = date(r.expiration_date),
    c.p_address_kind = r.address_kind,
    c.p_address_line1 = r.address_line1,
    c.p_address_line2 = r.address_line2,
    c.p_address_city = r.address_city,
    c.p_address_county = r.address_county,
    c.p_address_region = r.address_region,
    c.p_address_postal_code = r.address_postal_code,
    c.p_address_country = r.address_country,
    c.p_row_hash = r.row_hash,
    c.p_source = r.source,
    c.p_left_source_on = date(r.left_source_on)
SET c.snapshot_date = CASE WHEN stamp IS NOT NULL THEN stamp[0] WHEN sgp IS NOT NULL THEN c.s_snapshot_date ELSE c.snapshot_date END,
    c.last_verified = CASE WHEN stamp IS NOT NULL THEN stamp[1] WHEN sgp IS NOT NULL THEN c.s_last_verified ELSE c.last_verified END,
    c.data_source_notes = CASE WHEN stamp IS NOT NULL THEN [stamp[2]] + (CASE WHEN sgp IS NOT NULL THEN c.s_notes ELSE c.data_source_notes END)[1..] WHEN sgp IS NOT NULL THEN c.s_notes ELSE c.data_source_notes END
REMOVE c.tg, c.tg0
SET c.sg = $g, c.s_snapshot_date = date(r.snapshot_date), c.s_last_verified = r.last_verified, c.s_notes = r.data_source_notes
RETURN c.id AS id
