// Neo4j: one page of a credential's affiliates in force on $today, in the documented order, read
// from the index on SUPERVISES_IN_FORCE (supervisor_id, page_key) in index order, so a page reads
// $skip + $limit index entries and $limit affiliates; the total is the relationship type's degree
// at the credential, less the versions $g does not see. No row when the in-force relationships hold another day than $today (the
// caller reads affiliates.cypher instead and moves the day); total 0 for an unknown $id.
// :param id => 'FL|CQ0000001'
// :param today => '2026-11-26'
// :param skip => 0
// :param limit => 25
// :param g => 0
MATCH (:InForceDay {id: 'supervises', date: date($today)})
// The credential's version $g sees (a refresh's old one stays readable under Superseded until published).
OPTIONAL CALL () {
  CALL () {
    MATCH (s:LicenseCredential {id: $id}) USING INDEX s:LicenseCredential(id) RETURN s
    UNION
    MATCH (s:Superseded {id: $id}) USING INDEX s:Superseded(id) RETURN s
  }
  WITH s WHERE coalesce(s.vf, CASE WHEN s.id IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(s.vt, CASE WHEN s.id IS NULL THEN $g ELSE $g + 1 END) > $g
  RETURN s
}
CALL () {
  MATCH ()-[f:SUPERVISES_IN_FORCE]->(a)
  USING INDEX SEEK f:SUPERVISES_IN_FORCE(supervisor_id, page_key)
  WHERE f.supervisor_id = $id AND f.page_key >= ''
  // The versions $g sees, kept after the seek so that the page still comes in index order.
  WITH f, a WHERE coalesce(f.vf, CASE WHEN f.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(f.vt, CASE WHEN f.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g
  WITH f, a ORDER BY f.supervisor_id, f.page_key SKIP $skip LIMIT $limit
  // Tabs and line breaks in names read as spaces, as in LadybugDB's affiliate lists.
  WITH a, f, [n IN [a.full_name, a.business_name] | CASE WHEN n IS NULL OR n = '' THEN null ELSE replace(replace(replace(n, '\t', ' '), '\n', ' '), '\r', ' ') END] AS names
  RETURN collect({id: a.id, license_number: a.license_number, full_name: names[0], business_name: names[1],
                  license_type: a.license_type, affiliate_role: f.affiliate_role, relationship_type: f.relationship_type,
                  effective_from: toString(f.effective_from)}) AS page
}
// The versions $g does not see (a refresh's, not yet published or since replaced) are counted off
// the degree through the indexes on (supervisor_id, vf) and (supervisor_id, vt): as many as a run changed.
RETURN COUNT { (s)-[:SUPERVISES_IN_FORCE]->() } - COUNT { MATCH ()-[h:SUPERVISES_IN_FORCE]->() USING INDEX SEEK h:SUPERVISES_IN_FORCE(supervisor_id, vf) WHERE h.supervisor_id = $id AND h.vf > $g AND startNode(h) = s }
       - COUNT { MATCH ()-[h:SUPERVISES_IN_FORCE]->() USING INDEX SEEK h:SUPERVISES_IN_FORCE(supervisor_id, vt) WHERE h.supervisor_id = $id AND h.vt <= $g AND startNode(h) = s } AS total, page
