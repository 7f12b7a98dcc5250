// Neo4j: licences by id, read for their public shape in one traversal. Each credential's public
// fields with its jurisdiction's relationship coverage and the brokerage its source names by
// business name alone, and every SUPERVISES into it (in force or not). With $levels 1 or 2 also
// the supervisors in force on $day, each with the same fields (not their own SUPERVISES) and the
// relationship, and with 2 theirs in turn (the designated brokers of supervising businesses). No
// row for an unknown id. Issue, expiration and relationship dates come as strings: the driver's
// temporal values cost a page's decoding a fifth of its CPU (the versioned fields keep their
// canonical forms, test/unit/cypher-visibility.test.ts).
// :param ids => ['TX|0123456-SA', 'TX|0123456-B']
// :param day => '2026-11-25'
// :param levels => 2
// :param g => 0
UNWIND $ids AS id
CALL (id) {
  MATCH (c:LicenseCredential {id: id}) RETURN c
  UNION
  MATCH (c:Superseded {id: id}) RETURN c
}
WITH c WHERE coalesce(c.vf, 0) <= $g AND coalesce(c.vt, $g + 1) > $g
RETURN c {.id, .state, .license_number, .license_number_display, .license_type, .license_type_display, .status, .status_normalized, .entity_type, .full_name, .first_name, .middle_name, .last_name, .suffix, .business_name, issue_date: toString(c.issue_date), expiration_date: toString(c.expiration_date), .address_kind, .address_line1, .address_line2, .address_city, .address_county, .address_region, .address_postal_code, .address_country, .source, snapshot_date: CASE WHEN c.sg <= $g THEN c.s_snapshot_date ELSE c.snapshot_date END, last_verified: CASE WHEN c.sg <= $g THEN c.s_last_verified ELSE c.last_verified END, data_source_notes: CASE WHEN c.sg <= $g THEN c.s_notes ELSE c.data_source_notes END,
         pending: CASE WHEN c.pg <= $g THEN c {.p_license_number_display, .p_license_type_display, .p_status, .p_status_normalized, .p_issue_date, .p_expiration_date, .p_address_kind, .p_address_line1, .p_address_line2, .p_address_city, .p_address_county, .p_address_region, .p_address_postal_code, .p_address_country, .p_source} END,
         relationship_coverage: [(c)-[:IN_JURISDICTION]->(j:Jurisdiction) | j.relationship_coverage][0], context_brokerage: [(c)-[:AFFILIATED_WITH]->(b:Brokerage) | b.name][0]} AS record,
       [(s0)-[r0:SUPERVISES]->(c) WHERE coalesce(r0.vf, 0) <= $g AND coalesce(r0.vt, $g + 1) > $g | {supervisor_id: s0.id, affiliate_role: r0.affiliate_role, relationship_type: r0.relationship_type, effective_from: toString(r0.effective_from), effective_to: toString(r0.effective_to)}] AS supervision,
       CASE WHEN $levels > 0 THEN
         [(s)-[r:SUPERVISES]->(c) WHERE coalesce(r.vf, 0) <= $g AND coalesce(r.vt, $g + 1) > $g AND r.effective_from <= date($day) AND (r.effective_to IS NULL OR r.effective_to > date($day)) |
          {affiliate_id: c.id, affiliate_role: r.affiliate_role, relationship_type: r.relationship_type, effective_from: toString(r.effective_from), effective_to: toString(r.effective_to),
           record: s {.id, .state, .license_number, .license_number_display, .license_type, .license_type_display, .status, .status_normalized, .entity_type, .full_name, .first_name, .middle_name, .last_name, .suffix, .business_name, issue_date: toString(s.issue_date), expiration_date: toString(s.expiration_date), .address_kind, .address_line1, .address_line2, .address_city, .address_county, .address_region, .address_postal_code, .address_country, .source, snapshot_date: CASE WHEN s.sg <= $g THEN s.s_snapshot_date ELSE s.snapshot_date END, last_verified: CASE WHEN s.sg <= $g THEN s.s_last_verified ELSE s.last_verified END, data_source_notes: CASE WHEN s.sg <= $g THEN s.s_notes ELSE s.data_source_notes END,
         pending: CASE WHEN s.pg <= $g THEN s {.p_license_number_display, .p_license_type_display, .p_status, .p_status_normalized, .p_issue_date, .p_expiration_date, .p_address_kind, .p_address_line1, .p_address_line2, .p_address_city, .p_address_county, .p_address_region, .p_address_postal_code, .p_address_country, .p_source} END,
         relationship_coverage: [(s)-[:IN_JURISDICTION]->(j:Jurisdiction) | j.relationship_coverage][0], context_brokerage: [(s)-[:AFFILIATED_WITH]->(b:Brokerage) | b.name][0]},
           open: CASE WHEN $levels > 1 THEN
             [(t)-[q:SUPERVISES]->(s) WHERE coalesce(q.vf, 0) <= $g AND coalesce(q.vt, $g + 1) > $g AND q.effective_from <= date($day) AND (q.effective_to IS NULL OR q.effective_to > date($day)) |
              {affiliate_id: s.id, affiliate_role: q.affiliate_role, relationship_type: q.relationship_type, effective_from: toString(q.effective_from), effective_to: toString(q.effective_to),
               record: t {.id, .state, .license_number, .license_number_display, .license_type, .license_type_display, .status, .status_normalized, .entity_type, .full_name, .first_name, .middle_name, .last_name, .suffix, .business_name, issue_date: toString(t.issue_date), expiration_date: toString(t.expiration_date), .address_kind, .address_line1, .address_line2, .address_city, .address_county, .address_region, .address_postal_code, .address_country, .source, snapshot_date: CASE WHEN t.sg <= $g THEN t.s_snapshot_date ELSE t.snapshot_date END, last_verified: CASE WHEN t.sg <= $g THEN t.s_last_verified ELSE t.last_verified END, data_source_notes: CASE WHEN t.sg <= $g THEN t.s_notes ELSE t.data_source_notes END,
         pending: CASE WHEN t.pg <= $g THEN t {.p_license_number_display, .p_license_type_display, .p_status, .p_status_normalized, .p_issue_date, .p_expiration_date, .p_address_kind, .p_address_line1, .p_address_line2, .p_address_city, .p_address_county, .p_address_region, .p_address_postal_code, .p_address_country, .p_source} END,
         relationship_coverage: [(t)-[:IN_JURISDICTION]->(j:Jurisdiction) | j.relationship_coverage][0], context_brokerage: [(t)-[:AFFILIATED_WITH]->(b:Brokerage) | b.name][0]}}]
             ELSE [] END}]
       ELSE [] END AS open
