// Neo4j: search-brokerages.cypher for the credentials $ids of $states alone (search-rows-by-id.cypher).
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
MATCH (c)-[:AFFILIATED_WITH]->(bb)
WHERE 'Brokerage' IN labels(bb) AND bb.f_name IS NOT NULL
RETURN c.state AS state, c.id AS id, null AS effective_from, null AS effective_to, bb.f_name AS names
