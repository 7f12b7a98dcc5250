// Neo4j: the upward walk of a credential on a day: one variable-length walk up SUPERVISES over
// relationships in force on $day, at most 26 hops (the API's deepest max_depth and one more, to
// tell a truncated walk); each relationship is used once per path, so a cycle ends its path.
// Returns the credential (start: none when it is not on file) and every relationship the walk
// crossed, once, with its supervisor's public fields and coverage (see licensees); the service
// lays them out in levels.
// :param id => 'TX|0123456-SA'
// :param day => '2026-11-25'
MATCH (c:LicenseCredential {id: $id})
CALL (c) {
  OPTIONAL MATCH p = (c)(()<-[r:SUPERVISES WHERE r.effective_from <= date($day) AND (r.effective_to IS NULL OR r.effective_to > date($day))]-()){1,26}
  UNWIND coalesce(relationships(p), []) AS link
  WITH DISTINCT link
  WITH link, startNode(link) AS s, endNode(link) AS a
  RETURN collect({affiliate_id: a.id, affiliate_role: link.affiliate_role, relationship_type: link.relationship_type,
                  effective_from: link.effective_from, effective_to: link.effective_to,
                  record: s {.id, .state, .license_number, .license_number_display, .license_type, .license_type_display, .status, .status_normalized, .entity_type, .full_name, .first_name, .middle_name, .last_name, .suffix, .business_name, .issue_date, .expiration_date, .address_kind, .address_line1, .address_line2, .address_city, .address_county, .address_region, .address_postal_code, .address_country, .source, .snapshot_date, .last_verified, .data_source_notes,
           relationship_coverage: [(s)-[:IN_JURISDICTION]->(j:Jurisdiction) | j.relationship_coverage][0], context_brokerage: [(s)-[:AFFILIATED_WITH]->(b:Brokerage) | b.name][0]}}) AS crossed
}
RETURN c {.id, .state, .license_number, .license_number_display, .license_type, .license_type_display, .status, .status_normalized, .entity_type, .full_name, .first_name, .middle_name, .last_name, .suffix, .business_name, .issue_date, .expiration_date, .address_kind, .address_line1, .address_line2, .address_city, .address_county, .address_region, .address_postal_code, .address_country, .source, .snapshot_date, .last_verified, .data_source_notes,
         relationship_coverage: [(c)-[:IN_JURISDICTION]->(j:Jurisdiction) | j.relationship_coverage][0], context_brokerage: [(c)-[:AFFILIATED_WITH]->(b:Brokerage) | b.name][0]} AS start, crossed
