// Neo4j: the supervisors of credentials on a day: every SUPERVISES relationship into them that
// has started by $day and not ended, with the supervisor's public fields (see credentials) and the relationships into it.
// :param ids => ['TX|0123456-SA']
// :param day => '2026-11-25'
UNWIND $ids AS id
MATCH (a:LicenseCredential {id: id})<-[r:SUPERVISES]-(s:LicenseCredential)
WHERE r.effective_from <= date($day) AND (r.effective_to IS NULL OR r.effective_to > date($day))
RETURN a.id AS affiliate_id, r.affiliate_role AS affiliate_role, r.relationship_type AS relationship_type,
       r.effective_from AS effective_from, r.effective_to AS effective_to,
       s {.id, .state, .license_number, .license_number_display, .license_type, .license_type_display, .status, .status_normalized, .entity_type, .full_name, .first_name, .middle_name, .last_name, .suffix, .business_name, .issue_date, .expiration_date, .address_kind, .address_line1, .address_line2, .address_city, .address_county, .address_region, .address_postal_code, .address_country, .source, .snapshot_date, .last_verified, .data_source_notes, context_brokerage: [(s)-[:AFFILIATED_WITH]->(b:Brokerage) | b.name][0]} AS record,
       [(t:LicenseCredential)-[q:SUPERVISES]->(s) | {supervisor_id: t.id, affiliate_role: q.affiliate_role, relationship_type: q.relationship_type, effective_from: q.effective_from, effective_to: q.effective_to}] AS supervision
