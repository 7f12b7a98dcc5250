// Neo4j: one page of the SUPERVISES relationships out of a credential in force on $today, in the
// documented order (the affiliate's sort key and id, then the relationship's type, start, role and
// end), and how many there are in all. $affiliate_role and $relationship_type filter when not null.
// :param id => 'FL|CQ0000001'
// :param today => '2026-11-25'
// :param affiliate_role => null
// :param relationship_type => null
// :param skip => 0
// :param limit => 25
// :param g => 0
CALL () {
  MATCH (s:LicenseCredential {id: $id}) USING INDEX s:LicenseCredential(id) RETURN s
  UNION
  MATCH (s:Superseded {id: $id}) USING INDEX s:Superseded(id) RETURN s
}
WITH s WHERE coalesce(s.vf, CASE WHEN s.id IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(s.vt, CASE WHEN s.id IS NULL THEN $g ELSE $g + 1 END) > $g
CALL (s) {
  MATCH (s)-[r:SUPERVISES]->()
  WHERE coalesce(r.vf, CASE WHEN r.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(r.vt, CASE WHEN r.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g AND r.effective_from <= date($today) AND (r.effective_to IS NULL OR r.effective_to > date($today))
    AND ($affiliate_role IS NULL OR r.affiliate_role = $affiliate_role)
    AND ($relationship_type IS NULL OR r.relationship_type = $relationship_type)
  RETURN count(r) AS total
}
CALL (s) {
  MATCH (s)-[r:SUPERVISES]->(a)
  WHERE coalesce(r.vf, CASE WHEN r.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(r.vt, CASE WHEN r.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g AND r.effective_from <= date($today) AND (r.effective_to IS NULL OR r.effective_to > date($today))
    AND ($affiliate_role IS NULL OR r.affiliate_role = $affiliate_role)
    AND ($relationship_type IS NULL OR r.relationship_type = $relationship_type)
  WITH a, r
  ORDER BY a.sort_key, a.id, r.relationship_type, r.effective_from, r.affiliate_role, r.effective_to
  SKIP $skip LIMIT $limit
  // Tabs and line breaks in names read as spaces, as in LadybugDB's affiliate lists.
  WITH a, r, [n IN [a.full_name, a.business_name] | CASE WHEN n IS NULL OR n = '' THEN null ELSE replace(replace(replace(n, '\t', ' '), '\n', ' '), '\r', ' ') END] AS names
  RETURN collect({id: a.id, license_number: a.license_number, full_name: names[0], business_name: names[1],
                  license_type: a.license_type, affiliate_role: r.affiliate_role, relationship_type: r.relationship_type,
                  effective_from: toString(r.effective_from)}) AS page
}
RETURN total, page
