// Neo4j: search-rows.cypher for the credentials $ids of $states alone, those publishes changed
// (versions/row-changes.cypher): a search index patches them in. An id generation $g does not
// show (it left the state) has no row.
// :param ids => ['00000000-0000-4000-8000-000000000001']
// :param states => ['TX']
// :param g => 0
UNWIND $ids AS id
CALL (id) {
  MATCH (c:LicenseCredential {id: id}) USING INDEX c:LicenseCredential(id) RETURN c
  UNION
  MATCH (c:Superseded {id: id}) USING INDEX c:Superseded(id) RETURN c
}
WITH c WHERE c.state IN $states AND coalesce(c.vf, CASE WHEN c.id IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(c.vt, CASE WHEN c.id IS NULL THEN $g ELSE $g + 1 END) > $g
RETURN c.state AS state, c.id AS id, c.sort_key AS sort_key, c.license_number AS license_number,
       CASE WHEN c.pg <= $g THEN c.p_status_normalized ELSE c.status_normalized END AS status,
       c.license_type AS license_type, c.f_full AS f_full, c.f_first AS f_first, c.f_last AS f_last,
       c.f_business AS f_business, c.f_city AS f_city
