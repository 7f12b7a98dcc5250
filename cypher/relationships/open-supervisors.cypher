// Supervising relationships in force on $today (ISO date) of each credential in $ids, with the
// supervisor's identity and address. One row per relationship.
UNWIND $ids AS id
MATCH (s:LicenseCredential)-[r:SUPERVISES]->(c:LicenseCredential {id: id})
WHERE r.effective_from <= date($today) AND (r.effective_to IS NULL OR r.effective_to > date($today))
RETURN c.id AS affiliate_id, s.id AS id, s.state AS state, s.license_number AS license_number,
       s.license_type AS license_type, s.license_type_display AS license_type_display,
       s.status AS status, s.entity_type AS entity_type, s.full_name AS full_name,
       s.business_name AS business_name, s.address_kind AS address_kind,
       s.address_line1 AS address_line1, s.address_line2 AS address_line2,
       s.address_city AS address_city, s.address_county AS address_county,
       s.address_region AS address_region, s.address_postal_code AS address_postal_code,
       s.address_country AS address_country, r.affiliate_role AS affiliate_role,
       r.relationship_type AS relationship_type, r.effective_from AS effective_from,
       r.effective_to AS effective_to
ORDER BY affiliate_id, effective_from DESC, license_number
