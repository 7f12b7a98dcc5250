// Upserts credentials keyed by id, with their jurisdiction link and holding licensee.
// $rows: maps with every LicenseCredential property (dates as ISO strings) plus licensee_id,
// licensee_key and display_name; doc is LadybugDB's document of the record (its writes add it;
// Neo4j's rows have none), row_hash a digest of the published content, left_source_on the
// snapshot date it left its source (or null).
UNWIND $rows AS r
MERGE (c:LicenseCredential {id: r.id})
SET c.state = r.state, c.license_number = r.license_number,
    c.license_number_display = r.license_number_display, c.license_type = r.license_type,
    c.license_type_display = r.license_type_display, c.status = r.status,
    c.status_normalized = r.status_normalized, c.entity_type = r.entity_type,
    c.full_name = r.full_name, c.first_name = r.first_name, c.middle_name = r.middle_name,
    c.last_name = r.last_name, c.suffix = r.suffix, c.business_name = r.business_name,
    c.issue_date = date(r.issue_date), c.expiration_date = date(r.expiration_date),
    c.address_kind = r.address_kind, c.address_line1 = r.address_line1,
    c.address_line2 = r.address_line2, c.address_city = r.address_city,
    c.address_county = r.address_county, c.address_region = r.address_region,
    c.address_postal_code = r.address_postal_code, c.address_country = r.address_country,
    c.source = r.source, c.snapshot_date = date(r.snapshot_date),
    c.last_verified = r.last_verified, c.data_source_notes = r.data_source_notes,
    c.f_full = r.f_full, c.f_first = r.f_first, c.f_last = r.f_last,
    c.f_business = r.f_business, c.f_city = r.f_city, c.sort_key = r.sort_key, c.doc = r.doc,
    c.row_hash = r.row_hash, c.left_source_on = date(r.left_source_on)
WITH c, r
MATCH (j:Jurisdiction {code: r.state})
MERGE (c)-[:IN_JURISDICTION]->(j)
WITH c, r
MERGE (l:Licensee {id: r.licensee_id})
SET l.entity_type = r.entity_type, l.display_name = r.display_name, l.licensee_key = r.licensee_key
MERGE (l)-[:HOLDS]->(c)
