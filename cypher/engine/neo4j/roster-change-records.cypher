// Neo4j: the named records of roster changes roster-changes.cypher found (by their element ids,
// $refs, read with the same $from, $to and $window): each affiliate and, for a start, its latest
// relationship of the same type under another supervisor that ended at most $window days before it
// (came_from); for an end, the earliest one that started at most $window days after it (went_to).
// A ref that no longer names a relationship out of $id (a write in between) gives no row.
// :param id => 'FL|CQ0000001'
// :param from => '2026-01-01'
// :param to => '2026-12-31'
// :param window => 90
// :param refs => []
// :param g => 0
UNWIND $refs AS ref
MATCH (s)-[r:SUPERVISES]->(a)
WHERE elementId(r) = ref AND s.id = $id
CALL (s, r, a) {
  OPTIONAL MATCH (a)<-[p:SUPERVISES]-(o)
  WHERE r.effective_from >= date($from) AND o <> s
    AND coalesce(p.vf, CASE WHEN p.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(p.vt, CASE WHEN p.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g
    AND p.relationship_type = r.relationship_type AND p.effective_to <= r.effective_from AND p.effective_to >= r.effective_from - duration({days: $window})
  WITH o, p ORDER BY p.effective_to DESC, o.license_number LIMIT 1
  RETURN CASE WHEN p IS NULL THEN null ELSE [o.id, o.license_number, o.full_name, o.business_name, toString(p.effective_from), toString(p.effective_to)] END AS came_from
}
CALL (s, r, a) {
  OPTIONAL MATCH (a)<-[n:SUPERVISES]-(o)
  WHERE r.effective_to IS NOT NULL AND r.effective_to <= date($to) AND o <> s
    AND coalesce(n.vf, CASE WHEN n.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(n.vt, CASE WHEN n.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g
    AND n.relationship_type = r.relationship_type AND n.effective_from >= r.effective_to AND n.effective_from <= r.effective_to + duration({days: $window})
  WITH o, n ORDER BY n.effective_from, o.license_number LIMIT 1
  RETURN CASE WHEN n IS NULL THEN null ELSE [o.id, o.license_number, o.full_name, o.business_name, toString(n.effective_from), toString(n.effective_to)] END AS went_to
}
// Lists, not maps: the driver decodes a map's keys with every row.
RETURN collect([ref, a.id, a.license_number, a.full_name, a.business_name, a.license_type, r.affiliate_role, r.relationship_type,
                toString(r.effective_from), toString(r.effective_to), came_from, went_to]) AS changes
