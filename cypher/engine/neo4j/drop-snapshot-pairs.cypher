// Neo4j: after an import wrote credentials $ids in place, a refresh's pending snapshot date,
// verification time and notes (touch-credentials.cypher) and its pending values
// (overlay-credentials.cypher) are theirs no more.
// :param ids => ['FL|CQ0000001']
UNWIND $ids AS id
MATCH (c:LicenseCredential {id: id}) USING INDEX c:LicenseCredential(id)
REMOVE c.sg, c.s_snapshot_date, c.s_last_verified, c.s_notes, c.tg, c.tg0
REMOVE c:Pending, c.pg, c.p_license_number_display, c.p_license_type_display, c.p_status, c.p_status_normalized, c.p_issue_date, c.p_expiration_date, c.p_address_kind, c.p_address_line1, c.p_address_line2, c.p_address_city, c.p_address_county, c.p_address_region, c.p_address_postal_code, c.p_address_country, c.p_row_hash, c.p_source, c.p_left_source_on
