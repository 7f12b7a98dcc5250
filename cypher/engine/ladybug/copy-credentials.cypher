// LadybugDB only: a first import's credentials (the canonical import's bulk path) as one COPY
// into the node table, which reads in parallel and builds the key index in bulk: about 16 µs a
// row, against ~40 for create-credentials' LOAD and CREATE. The file's columns are the table's,
// in its order; data_source_notes joined by U+001F (a parameter cannot be typed here).
COPY LicenseCredential FROM (
// @load
RETURN id, state, license_number, license_number_display, license_type, license_type_display, status,
       status_normalized, entity_type, full_name, first_name, middle_name, last_name, suffix, business_name,
       issue_date, expiration_date, address_kind, address_line1, address_line2, address_city, address_county,
       address_region, address_postal_code, address_country, source, snapshot_date, last_verified,
       string_split(data_source_notes, '\u001f'), f_full, f_first, f_last, f_business, f_city, sort_key, doc,
       row_hash, left_source_on)
