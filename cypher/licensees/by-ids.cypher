// Licence credentials by id, with their jurisdiction's relationship coverage and any
// business-name brokerage context. $ids: credential ids; unknown ids yield no row.
UNWIND $ids AS id
MATCH (c:LicenseCredential {id: id})-[:IN_JURISDICTION]->(j:Jurisdiction)
OPTIONAL MATCH (c)-[:AFFILIATED_WITH]->(b:Brokerage)
RETURN c.id AS id, c.state AS state, c.license_number AS license_number,
       c.license_number_display AS license_number_display, c.license_type AS license_type,
       c.license_type_display AS license_type_display, c.status AS status,
       c.status_normalized AS status_normalized, c.entity_type AS entity_type,
       c.full_name AS full_name, c.first_name AS first_name, c.middle_name AS middle_name,
       c.last_name AS last_name, c.suffix AS suffix, c.business_name AS business_name,
       c.issue_date AS issue_date, c.expiration_date AS expiration_date,
       c.address_kind AS address_kind, c.address_line1 AS address_line1,
       c.address_line2 AS address_line2, c.address_city AS address_city,
       c.address_county AS address_county, c.address_region AS address_region,
       c.address_postal_code AS address_postal_code, c.address_country AS address_country,
       c.source AS source, c.snapshot_date AS snapshot_date, c.last_verified AS last_verified,
       c.data_source_notes AS data_source_notes,
       j.relationship_coverage AS relationship_coverage, b.name AS context_brokerage
