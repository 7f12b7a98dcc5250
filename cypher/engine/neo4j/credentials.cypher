// Neo4j: credentials by id, each as its public fields (the name of the brokerage its source names
// by business name alone included) with every SUPERVISES relationship into it, in force or not:
// a key seek, then one hop. No row for an unknown id. Inside a refresh run ($g, $published: see
// versions.ts) as the run has written them; outside one ($g 0) as published.
// :param g => 0
// :param published => 0
// :param ids => ['TX|0123456-SA', 'TX|0123456-B']
UNWIND $ids AS id
MATCH (c:LicenseCredential {id: id}) USING INDEX c:LicenseCredential(id)
WITH c, CASE WHEN c.sg <= $g THEN c.sg END AS sgv, CASE WHEN c.tg <= $g THEN c.tg WHEN c.tg0 <= $g THEN c.tg0 END AS tgv
WITH c, sgv, CASE WHEN tgv > coalesce(sgv, -1) THEN COLLECT { MATCH (st:TouchStamp {g: tgv}) RETURN [st.snapshot_date, st.last_verified, st.note] }[0] END AS stamp
RETURN c {.id, .state, .license_number, .license_number_display, .license_type, .license_type_display, .status, .status_normalized, .entity_type, .full_name, .first_name, .middle_name, .last_name, .suffix, .business_name, .issue_date, .expiration_date, .address_kind, .address_line1, .address_line2, .address_city, .address_county, .address_region, .address_postal_code, .address_country, .source, snapshot_date: CASE WHEN stamp IS NOT NULL THEN stamp[0] WHEN sgv IS NOT NULL THEN c.s_snapshot_date ELSE c.snapshot_date END, last_verified: CASE WHEN stamp IS NOT NULL THEN stamp[1] WHEN sgv IS NOT NULL THEN c.s_last_verified ELSE c.last_verified END, data_source_notes: CASE WHEN stamp IS NOT NULL THEN [stamp[2]] + (CASE WHEN sgv IS NOT NULL THEN c.s_notes ELSE c.data_source_notes END)[1..] WHEN sgv IS NOT NULL THEN c.s_notes ELSE c.data_source_notes END, context_brokerage: [(c)-[:AFFILIATED_WITH]->(b:Brokerage) | b.name][0]} AS record,
       [(s:LicenseCredential)-[r:SUPERVISES]->(c) WHERE r.vt IS NULL | {supervisor_id: s.id, affiliate_role: r.affiliate_role, relationship_type: r.relationship_type, effective_from: r.effective_from, effective_to: r.effective_to}] AS supervision
