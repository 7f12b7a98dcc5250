// LadybugDB only: refresh/create-credentials.cypher as a bulk load. The engine writes the rows to
// a CSV file and puts its LOAD WITH HEADERS clause at the marker; columns keep their names
// (data_source_notes joined by $notes_separator). About 15x faster than UNWIND over parameters.
// @load
CREATE (c:LicenseCredential {id: id,
  state: state,
  license_number: license_number,
  license_number_display: license_number_display,
  license_type: license_type,
  license_type_display: license_type_display,
  status: status,
  status_normalized: status_normalized,
  entity_type: entity_type,
  full_name: full_name,
  first_name: first_name,
  middle_name: middle_name,
  last_name: last_name,
  suffix: suffix,
  business_name: business_name,
  issue_date: issue_date,
  expiration_date: expiration_date,
  address_kind: address_kind,
  address_line1: address_line1,
  address_line2: address_line2,
  address_city: address_city,
  address_county: address_county,
  address_region: address_region,
  address_postal_code: address_postal_code,
  address_country: address_country,
  source: source,
  snapshot_date: snapshot_date,
  last_verified: last_verified,
  data_source_notes: string_split(data_source_notes, $notes_separator),
  f_full: f_full,
  f_first: f_first,
  f_last: f_last,
  f_business: f_business,
  f_city: f_city,
  sort_key: sort_key,
  doc: doc,
  row_hash: row_hash,
  left_source_on: left_source_on})
WITH c, licensee_id, entity_type, display_name, licensee_key, state
MATCH (j:Jurisdiction {code: state})
CREATE (c)-[:IN_JURISDICTION]->(j)
WITH c, licensee_id, entity_type, display_name, licensee_key, state
MERGE (l:Licensee {id: licensee_id})
SET l.entity_type = entity_type, l.display_name = display_name, l.licensee_key = licensee_key
CREATE (l)-[:HOLDS]->(c)
