// Neo4j: one page of a credential's affiliates in force on $today, in the documented order, read
// from the index on SUPERVISES_IN_FORCE (supervisor_id, page_key) in index order, so a page reads
// $skip + $limit index entries and $limit affiliates; the total is the relationship type's degree
// at the credential. No row when the in-force relationships hold another day than $today (the
// caller reads affiliates.cypher instead and moves the day); total 0 for an unknown $id.
// :param id => 'FL|CQ0000001'
// :param today => '2026-11-26'
// :param skip => 0
// :param limit => 25
MATCH (:InForceDay {id: 'supervises', date: date($today)})
OPTIONAL MATCH (s:LicenseCredential {id: $id})
CALL () {
  MATCH ()-[f:SUPERVISES_IN_FORCE]->(a)
  USING INDEX SEEK f:SUPERVISES_IN_FORCE(supervisor_id, page_key)
  WHERE f.supervisor_id = $id AND f.page_key >= ''
  WITH f, a ORDER BY f.supervisor_id, f.page_key SKIP $skip LIMIT $limit
  // Tabs and line breaks in names read as spaces, as in LadybugDB's affiliate lists.
  WITH a, f, [n IN [a.full_name, a.business_name] | CASE WHEN n IS NULL OR n = '' THEN null ELSE replace(replace(replace(n, '\t', ' '), '\n', ' '), '\r', ' ') END] AS names
  RETURN collect({id: a.id, license_number: a.license_number, full_name: names[0], business_name: names[1],
                  license_type: a.license_type, affiliate_role: f.affiliate_role, relationship_type: f.relationship_type,
                  effective_from: f.effective_from}) AS page
}
RETURN COUNT { (s)-[:SUPERVISES_IN_FORCE]->() } AS total, page
