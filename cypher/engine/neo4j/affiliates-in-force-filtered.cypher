// Neo4j: affiliates-in-force.cypher with $affiliate_role and $relationship_type filtering (either
// may be null): the page reads the same index in order, keeping the entries that match, and the
// total counts the credential's index entries that match.
// :param id => 'FL|CQ0000001'
// :param today => '2026-11-26'
// :param affiliate_role => 'salesperson'
// :param relationship_type => null
// :param skip => 0
// :param limit => 25
// :param g => 0
MATCH (:InForceDay {id: 'supervises', date: date($today)})
CALL () {
  MATCH ()-[f:SUPERVISES_IN_FORCE]->()
  USING INDEX SEEK f:SUPERVISES_IN_FORCE(supervisor_id, page_key)
  WHERE f.supervisor_id = $id AND f.page_key >= ''
    AND ($affiliate_role IS NULL OR f.affiliate_role = $affiliate_role)
    AND ($relationship_type IS NULL OR f.relationship_type = $relationship_type)
    AND coalesce(f.vf, CASE WHEN f.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(f.vt, CASE WHEN f.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g
  RETURN count(f) AS total
}
CALL () {
  MATCH ()-[f:SUPERVISES_IN_FORCE]->(a)
  USING INDEX SEEK f:SUPERVISES_IN_FORCE(supervisor_id, page_key)
  WHERE f.supervisor_id = $id AND f.page_key >= ''
    AND ($affiliate_role IS NULL OR f.affiliate_role = $affiliate_role)
    AND ($relationship_type IS NULL OR f.relationship_type = $relationship_type)
  // The versions $g sees, kept after the seek so that the page still comes in index order.
  WITH f, a WHERE coalesce(f.vf, CASE WHEN f.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(f.vt, CASE WHEN f.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g
  WITH f, a ORDER BY f.supervisor_id, f.page_key SKIP $skip LIMIT $limit
  WITH a, f, [n IN [a.full_name, a.business_name] | CASE WHEN n IS NULL OR n = '' THEN null ELSE replace(replace(replace(n, '\t', ' '), '\n', ' '), '\r', ' ') END] AS names
  RETURN collect({id: a.id, license_number: a.license_number, full_name: names[0], business_name: names[1],
                  license_type: a.license_type, affiliate_role: f.affiliate_role, relationship_type: f.relationship_type,
                  effective_from: toString(f.effective_from)}) AS page
}
RETURN total, page
