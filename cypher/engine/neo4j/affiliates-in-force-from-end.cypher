// Neo4j: affiliates-in-force.cypher's page read from the end of the index, for a page past the
// middle (a page near the end reads a page of entries, not the whole roster): $from_end entries
// after the page are skipped, $limit taken, last first; the caller reverses them.
// :param id => 'FL|CQ0000001'
// :param today => '2026-11-26'
// :param from_end => 0
// :param limit => 25
// :param g => 0
MATCH (:InForceDay {id: 'supervises', date: date($today)})
CALL () {
  MATCH ()-[f:SUPERVISES_IN_FORCE]->(a)
  USING INDEX SEEK f:SUPERVISES_IN_FORCE(supervisor_id, page_key)
  WHERE f.supervisor_id = $id AND f.page_key >= ''
  // The versions $g sees, kept after the seek so that the page still comes in index order.
  WITH f, a WHERE coalesce(f.vf, CASE WHEN f.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(f.vt, CASE WHEN f.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g
  WITH f, a ORDER BY f.supervisor_id DESC, f.page_key DESC SKIP $from_end LIMIT $limit
  WITH a, f, [n IN [a.full_name, a.business_name] | CASE WHEN n IS NULL OR n = '' THEN null ELSE replace(replace(replace(n, '\t', ' '), '\n', ' '), '\r', ' ') END] AS names
  RETURN collect({id: a.id, license_number: a.license_number, full_name: names[0], business_name: names[1],
                  license_type: a.license_type, affiliate_role: f.affiliate_role, relationship_type: f.relationship_type,
                  effective_from: toString(f.effective_from)}) AS page
}
RETURN page
