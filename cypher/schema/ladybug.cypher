// LadybugDB schema: node and relationship tables. Only primary keys are indexed, so every hot
// entry point is a key: credentials by id (a UUIDv5 of state + licence number), jurisdictions
// by code (search enters a state through IN_JURISDICTION). `doc` is a read model written with
// the row at import: the record's public fields as JSON, so a lookup returns one column instead
// of thirty (each returned column costs LadybugDB ~50 µs).
CREATE NODE TABLE IF NOT EXISTS LicenseCredential(
  id STRING PRIMARY KEY,
  state STRING,
  license_number STRING,
  license_number_display STRING,
  license_type STRING,
  license_type_display STRING,
  status STRING,
  status_normalized STRING,
  entity_type STRING,
  full_name STRING,
  first_name STRING,
  middle_name STRING,
  last_name STRING,
  suffix STRING,
  business_name STRING,
  issue_date DATE,
  expiration_date DATE,
  address_kind STRING,
  address_line1 STRING,
  address_line2 STRING,
  address_city STRING,
  address_county STRING,
  address_region STRING,
  address_postal_code STRING,
  address_country STRING,
  source STRING,
  snapshot_date DATE,
  last_verified STRING,
  data_source_notes STRING[],
  f_full STRING,
  f_first STRING,
  f_last STRING,
  f_business STRING,
  f_city STRING,
  sort_key STRING,
  doc STRING,
  row_hash STRING,
  left_source_on DATE
);
// Supervision read models, rebuilt per state at the end of every write unit
// (engine/ladybug/*-list.cypher): a credential's supervising relationships with each
// supervisor's doc, and a supervisor's relationships with each affiliate's sort key. Tables of
// their own, keyed by the credential id: rows inserted afresh read ~3x faster in LadybugDB than
// a column of the credential updated in place.
CREATE NODE TABLE IF NOT EXISTS SupervisorList(id STRING PRIMARY KEY, state STRING, entries STRING);
CREATE NODE TABLE IF NOT EXISTS AffiliateList(id STRING PRIMARY KEY, state STRING, entries STRING);
CREATE NODE TABLE IF NOT EXISTS Licensee(
  id STRING PRIMARY KEY,
  entity_type STRING,
  display_name STRING,
  licensee_key STRING
);
CREATE NODE TABLE IF NOT EXISTS Brokerage(
  id STRING PRIMARY KEY,
  state STRING,
  name STRING,
  f_name STRING
);
CREATE NODE TABLE IF NOT EXISTS Jurisdiction(
  code STRING PRIMARY KEY,
  name STRING,
  status STRING,
  refresh_frequency STRING,
  relationship_coverage STRING,
  relationship_coverage_notes STRING,
  record_count INT64,
  active_record_count INT64,
  last_updated STRING,
  is_demo BOOLEAN
);
// The landed mark of an import unit whose change events await their commit (import/mark-run).
CREATE NODE TABLE IF NOT EXISTS ImportRun(id STRING PRIMARY KEY, landed_at STRING);
CREATE NODE TABLE IF NOT EXISTS Source(
  id STRING PRIMARY KEY,
  state STRING,
  name STRING,
  url STRING,
  format STRING,
  last_import_at STRING,
  last_import_rows INT64,
  last_snapshot_date DATE,
  last_run STRING
);
CREATE REL TABLE IF NOT EXISTS HOLDS(FROM Licensee TO LicenseCredential);
CREATE REL TABLE IF NOT EXISTS IN_JURISDICTION(FROM LicenseCredential TO Jurisdiction);
CREATE REL TABLE IF NOT EXISTS SUPERVISES(
  FROM LicenseCredential TO LicenseCredential,
  affiliate_role STRING,
  relationship_type STRING,
  effective_from DATE,
  effective_to DATE,
  source STRING
);
CREATE REL TABLE IF NOT EXISTS AFFILIATED_WITH(
  FROM LicenseCredential TO Brokerage,
  basis STRING,
  source STRING
);
CREATE REL TABLE IF NOT EXISTS PUBLISHES(FROM Source TO Jurisdiction);
