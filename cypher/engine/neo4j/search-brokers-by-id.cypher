// Neo4j: search-brokers.cypher for the credentials $ids of $states alone (search-rows-by-id.cypher).
// :param ids => ['00000000-0000-4000-8000-000000000001']
// :param states => ['TX']
// :param g => 0
// :param types => ['sponsoring_broker', 'employing_broker', 'main_office', 'supervising_broker']
UNWIND $ids AS id
CALL (id) {
  MATCH (c:LicenseCredential {id: id}) USING INDEX c:LicenseCredential(id) RETURN c
  UNION
  MATCH (c:Superseded {id: id}) USING INDEX c:Superseded(id) RETURN c
}
WITH c WHERE c.state IN $states AND coalesce(c.vf, CASE WHEN c.id IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(c.vt, CASE WHEN c.id IS NULL THEN $g ELSE $g + 1 END) > $g
// Expanded from c, no predicate in the pattern: with them, a plan made on a small graph seeks
// every SUPERVISES by its relationship_type or effective_from index and keeps those ending at c.
UNWIND [(c)<-[br:SUPERVISES]-(bs) | [br, bs]] AS link
WITH c, link[0] AS br, link[1] AS bs
WHERE coalesce(br.vf, CASE WHEN br.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(br.vt, CASE WHEN br.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g AND br.relationship_type IN $types AND br.effective_from IS NOT NULL
RETURN c.state AS state, c.id AS id, toString(br.effective_from) AS effective_from, toString(br.effective_to) AS effective_to,
       coalesce(bs.f_full, '') + ' ' + coalesce(bs.f_business, '') AS names
