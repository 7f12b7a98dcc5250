// One page of the current affiliates (relationships in force on $today) of a supervising
// credential ($id), ordered like search results. $skip, $limit: integers; filters from affiliates.filters.cypher.
MATCH (s:LicenseCredential {id: $id})-[r:SUPERVISES]->(a:LicenseCredential)
WHERE r.effective_from <= date($today) AND (r.effective_to IS NULL OR r.effective_to > date($today))
// @filters
WITH a, r
ORDER BY a.sort_key, a.id, r.relationship_type, r.effective_from
SKIP $skip LIMIT $limit
RETURN a.id AS id, a.license_number AS license_number, a.full_name AS full_name,
       a.business_name AS business_name, a.license_type AS license_type,
       r.affiliate_role AS affiliate_role, r.relationship_type AS relationship_type,
       r.effective_from AS effective_from
