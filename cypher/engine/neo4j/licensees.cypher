// Neo4j: licences by id, read for their public shape in one traversal: a row for each credential
// and one for each supervisor read with it, every node's fields written once (the statement
// stays short: the driver sends a query's text with every call, 1,400 bytes a packet). Columns: id
// (the credential asked for), level (0 the credential; with $levels 1 or 2, 1: a supervisor in force
// on $day; with 2, 2: a supervisor of such a supervisor, the designated brokers of supervising
// businesses), affiliate_id (whom the row's supervisor supervises) and that relationship's fields,
// supervision (level 0: every SUPERVISES into the credential, in force or not, as lists of supervisor
// id, role, type, from and to) and record: public fields with the jurisdiction's relationship coverage
// and the brokerage its source names by business name alone, then the pending values or null. Records
// are lists in the order of reads.ts CREDENTIAL_FIELDS and PENDING_FIELDS: a page of maps decodes its
// keys again for every record, twice the API's CPU. With $brief, a supervisor's record holds only
// what the public shape shows of it (SHAPE_SUPERVISOR_FIELDS, then its pending values or null):
// a search page reads half the properties. No row for an unknown id. Dates come as strings.
// :param ids => ['TX|0123456-SA', 'TX|0123456-B']
// :param day => '2026-11-25'
// :param levels => 2
// :param g => 0
// :param brief => false
UNWIND $ids AS id
CALL (id) {
  MATCH (c:LicenseCredential {id: id}) USING INDEX c:LicenseCredential(id) RETURN c
  UNION
  MATCH (c:Superseded {id: id}) USING INDEX c:Superseded(id) RETURN c
}
WITH c WHERE coalesce(c.vf, CASE WHEN c.id IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(c.vt, CASE WHEN c.id IS NULL THEN $g ELSE $g + 1 END) > $g
WITH c, date($day) AS day, [(s)-[r:SUPERVISES]->(c) WHERE coalesce(r.vf, CASE WHEN r.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(r.vt, CASE WHEN r.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g | [s, r]] AS inc
WITH c, day, inc, [x IN inc WHERE $levels > 0 AND x[1].effective_from <= day AND (x[1].effective_to IS NULL OR x[1].effective_to > day) | x + [c, 1]] AS ups
UNWIND [[c, null, null, 0]] + ups + reduce(a = [], s IN CASE WHEN $levels > 1 THEN [u IN ups | u[0]] ELSE [] END |
  a + [(t)-[q:SUPERVISES]->(s) WHERE coalesce(q.vf, CASE WHEN q.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(q.vt, CASE WHEN q.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g AND q.effective_from <= day AND (q.effective_to IS NULL OR q.effective_to > day) | [t, q, s, 2]]) AS e
WITH c, inc, e[0] AS n, e[1] AS r, e[2].id AS affiliate_id, e[3] AS level
WITH c, inc, n, r, affiliate_id, level, level > 0 AND $brief AS brief
WITH c, inc, n, r, affiliate_id, level, brief, CASE WHEN n.sg <= $g THEN n.sg END AS sgv, CASE WHEN n.tg <= $g THEN n.tg WHEN n.tg0 <= $g THEN n.tg0 END AS tgv
WITH c, inc, n, r, affiliate_id, level, brief, sgv, CASE WHEN NOT brief AND tgv > coalesce(sgv, -1) THEN COLLECT { MATCH (st:TouchStamp {g: tgv}) RETURN [st.snapshot_date, st.last_verified, st.note] }[0] END AS stamp
RETURN c.id AS id, level, affiliate_id,
       r.affiliate_role AS affiliate_role, r.relationship_type AS relationship_type, toString(r.effective_from) AS effective_from, toString(r.effective_to) AS effective_to,
       CASE level WHEN 0 THEN [x IN inc | [x[0].id, x[1].affiliate_role, x[1].relationship_type, toString(x[1].effective_from), toString(x[1].effective_to)]] END AS supervision,
       CASE WHEN brief THEN [n.id, n.license_number, n.entity_type, n.license_type, n.full_name, n.first_name, n.middle_name, n.last_name, n.business_name, n.address_kind, n.address_line1, n.address_line2, n.address_city, n.address_county, n.address_region, n.address_postal_code, n.address_country,
         CASE WHEN n.pg <= $g THEN [n.p_license_number_display, n.p_license_type_display, n.p_status, n.p_status_normalized, n.p_issue_date, n.p_expiration_date, n.p_address_kind, n.p_address_line1, n.p_address_line2, n.p_address_city, n.p_address_county, n.p_address_region, n.p_address_postal_code, n.p_address_country, n.p_source] END] ELSE
       [n.id, n.state, n.license_number, n.license_number_display, n.license_type, n.license_type_display, n.status, n.status_normalized, n.entity_type, n.full_name, n.first_name, n.middle_name, n.last_name, n.suffix, n.business_name,
         toString(n.issue_date), toString(n.expiration_date), n.address_kind, n.address_line1, n.address_line2, n.address_city, n.address_county, n.address_region, n.address_postal_code, n.address_country, n.source,
         toString(CASE WHEN stamp IS NOT NULL THEN stamp[0] WHEN sgv IS NOT NULL THEN n.s_snapshot_date ELSE n.snapshot_date END), CASE WHEN stamp IS NOT NULL THEN stamp[1] WHEN sgv IS NOT NULL THEN n.s_last_verified ELSE n.last_verified END,
         CASE WHEN stamp IS NOT NULL THEN [stamp[2]] + (CASE WHEN sgv IS NOT NULL THEN n.s_notes ELSE n.data_source_notes END)[1..] WHEN sgv IS NOT NULL THEN n.s_notes ELSE n.data_source_notes END,
         [(n)-[:IN_JURISDICTION]->(j:Jurisdiction) | j.relationship_coverage][0], [(n)-[:AFFILIATED_WITH]->(b:Brokerage) | b.name][0],
         CASE WHEN n.pg <= $g THEN [n.p_license_number_display, n.p_license_type_display, n.p_status, n.p_status_normalized, n.p_issue_date, n.p_expiration_date, n.p_address_kind, n.p_address_line1, n.p_address_line2, n.p_address_city, n.p_address_county, n.p_address_region, n.p_address_postal_code, n.p_address_country, n.p_source] END] END AS record
