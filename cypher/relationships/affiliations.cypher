// Supervision history of one credential ($id): its supervising relationships, filtered by the
// fragments of affiliations.filters.cypher, newest first.
MATCH (s:LicenseCredential)-[r:SUPERVISES]->(c:LicenseCredential {id: $id})
WHERE c.id = $id
// @filters
RETURN s.id AS supervisor_id, s.license_number AS supervisor_license_number,
       s.full_name AS supervisor_full_name, s.business_name AS supervisor_business_name,
       r.affiliate_role AS affiliate_role, r.relationship_type AS relationship_type,
       r.effective_from AS effective_from, r.effective_to AS effective_to
ORDER BY effective_from DESC, supervisor_license_number, relationship_type
