// Neo4j, in a refresh run of generation $g: credentials a full snapshot no longer lists, inactive
// from $g as pending values on the same node (overlay-credentials.cypher): their status, the date
// they left and the note; their verification time stays. Gives the ids it took (a credential
// this run wrote a version of is marked by mark-left-source.cypher).
// $rows: maps with id, status, data_source_notes, left_source_on.
// :param g => 1
// :param published => 0
UNWIND $rows AS r
MATCH (c:LicenseCredential {id: r.id}) USING INDEX c:LicenseCredential(id)
WHERE coalesce(c.vf, 0) < $g AND c.pg IS NULL
WITH r, c, CASE WHEN c.sg <= $published THEN c.sg END AS sgp, CASE WHEN c.tg <= $published THEN c.tg WHEN c.tg0 <= $published THEN c.tg0 END AS tgp
WITH r, c, sgp, CASE WHEN tgp > coalesce(sgp, -1) THEN COLLECT { MATCH (st:TouchStamp {g: tgp}) RETURN [st.snapshot_date, st.last_verified, st.note] }[0] END AS stamp
SET c:Pending, c.pg = $g,
    c.p_license_number_display = c.license_number_display,
    c.p_license_type_display = c.license_type_display,
    c.p_status = r.status,
    c.p_status_normalized = 'inactive',
    c.p_issue_date = c.issue_date,
    c.p_expiration_date = c.expiration_date,
    c.p_address_kind = c.address_kind,
    c.p_address_line1 = c.address_line1,
    c.p_address_line2 = c.address_line2,
    c.p_address_city = c.address_city,
    c.p_address_county = c.address_county,
    c.p_address_region = c.address_region,
    c.p_address_postal_code = c.address_postal_code,
    c.p_address_country = c.address_country,
    c.p_row_hash = c.row_hash,
    c.p_source = c.source,
    c.p_left_source_on = date(r.left_source_on)
SET c.snapshot_date = CASE WHEN stamp IS NOT NULL THEN stamp[0] WHEN sgp IS NOT NULL THEN c.s_snapshot_date ELSE c.snapshot_date END,
    c.last_verified = CASE WHEN stamp IS NOT NULL THEN stamp[1] WHEN sgp IS NOT NULL THEN c.s_last_verified ELSE c.last_verified END,
    c.data_source_notes = CASE WHEN stamp IS NOT NULL THEN [stamp[2]] + (CASE WHEN sgp IS NOT NULL THEN c.s_notes ELSE c.data_source_notes END)[1..] WHEN sgp IS NOT NULL THEN c.s_notes ELSE c.data_source_notes END
REMOVE c.tg, c.tg0
SET c.sg = $g, c.s_snapshot_date = c.snapshot_date, c.s_last_verified = c.last_verified, c.s_notes = r.data_source_notes
RETURN c.id AS id
