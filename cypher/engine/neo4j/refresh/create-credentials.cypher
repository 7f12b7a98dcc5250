// Neo4j, in a refresh run of generation $g: the credentials of state $state the run has not seen
// before, as versions from $g (readers see them once it is published), each in its jurisdiction and
// held by its licensee, merged (licensees new to the graph are versions from $g too). One pass: linking them in a second
// statement read every credential again by its id. $rows: as refresh/create-credentials.cypher.
// :param g => 1
// :param state => 'OR'
MERGE (j:Jurisdiction {code: $state})
WITH j
UNWIND $rows AS r
CREATE (c:LicenseCredential:Versioned {id: r.id,
  vf: $g,
  state: r.state,
  license_number: r.license_number,
  license_number_display: r.license_number_display,
  license_type: r.license_type,
  license_type_display: r.license_type_display,
  status: r.status,
  status_normalized: r.status_normalized,
  entity_type: r.entity_type,
  full_name: r.full_name,
  first_name: r.first_name,
  middle_name: r.middle_name,
  last_name: r.last_name,
  suffix: r.suffix,
  business_name: r.business_name,
  issue_date: date(r.issue_date),
  expiration_date: date(r.expiration_date),
  address_kind: r.address_kind,
  address_line1: r.address_line1,
  address_line2: r.address_line2,
  address_city: r.address_city,
  address_county: r.address_county,
  address_region: r.address_region,
  address_postal_code: r.address_postal_code,
  address_country: r.address_country,
  source: r.source,
  snapshot_date: date(r.snapshot_date),
  last_verified: r.last_verified,
  data_source_notes: r.data_source_notes,
  f_full: r.f_full,
  f_first: r.f_first,
  f_last: r.f_last,
  f_business: r.f_business,
  f_city: r.f_city,
  sort_key: r.sort_key,
  row_hash: r.row_hash,
  left_source_on: date(r.left_source_on)})
CREATE (c)-[:IN_JURISDICTION]->(j)
WITH c, r
MERGE (l:Licensee {id: r.licensee_id})
  ON CREATE SET l:Versioned, l.vf = $g
SET l.entity_type = r.entity_type, l.display_name = r.display_name, l.licensee_key = r.licensee_key
CREATE (l)-[:HOLDS]->(c)
