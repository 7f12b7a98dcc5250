// Neo4j: the SUPERVISES relationships out of a credential that started or ended from $from to $to
// (both included), counted per period (periods begin on $starts, $from first) with, for a start,
// those whose affiliate has a relationship of the same type under another supervisor that ended at
// most $window days before it (came); for an end, one that started at most $window days after it
// (went); each period's lists paged [$skip, $end). And how many were in force on the day before $from. $affiliate_role and $relationship_type filter when not null.
// No row when the credential is not on file.
// :param id => 'FL|CQ0000001'
// :param from => '2026-01-01'
// :param to => '2026-12-31'
// :param starts => ['2026-01-01', '2026-07-01']
// :param skip => 0
// :param end => 10
// :param window => 90
// :param affiliate_role => null
// :param relationship_type => null
// :param g => 0
CALL () {
  MATCH (s:LicenseCredential {id: $id}) USING INDEX s:LicenseCredential(id) RETURN s
  UNION
  MATCH (s:Superseded {id: $id}) USING INDEX s:Superseded(id) RETURN s
}
WITH s WHERE coalesce(s.vf, CASE WHEN s.id IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(s.vt, CASE WHEN s.id IS NULL THEN $g ELSE $g + 1 END) > $g
// One pass over the relationships out of s: those in force the day before $from are counted,
// those begun or ended in the range kept.
CALL (s) {
  MATCH (s)-[r:SUPERVISES]->(a)
  WHERE coalesce(r.vf, CASE WHEN r.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(r.vt, CASE WHEN r.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g
    AND r.effective_from <= date($to) AND (r.effective_to IS NULL OR r.effective_to >= date($from))
    AND ($affiliate_role IS NULL OR r.affiliate_role = $affiliate_role)
    AND ($relationship_type IS NULL OR r.relationship_type = $relationship_type)
  WITH r, a, r.effective_from < date($from) AS earlier
  RETURN count(CASE WHEN earlier THEN 1 END) AS before,
         collect(CASE WHEN NOT earlier OR r.effective_to <= date($to) THEN {r: r, a: a} END) AS changed
}
// Each change once in each list it is in (begun in the range: joined; ended in it: left), in the
// lists' order (by day, then byRosterChange), counted into the last period begun on or before its day with
// whether its affiliate came from or went to another supervisor; only each list's page is read whole.
CALL (s, changed) {
  WITH s, changed, [x IN $starts | date(x)] AS starts
  UNWIND changed AS c
  WITH s, starts, c.r AS r, c.a AS a
  // A relationship's transfer marks (roster-marks.cypher), or where it has none yet (a version
  // from before them), its counterparts at $g.
  WITH r, a, starts, r.effective_from >= date($from) AND CASE WHEN r.came IS NOT NULL THEN r.came ELSE EXISTS {
      MATCH (a)<-[p:SUPERVISES]-(o)
      WHERE o <> s AND p.relationship_type = r.relationship_type AND p.effective_to <= r.effective_from AND p.effective_to >= r.effective_from - duration({days: $window})
        AND coalesce(p.vf, CASE WHEN p.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(p.vt, CASE WHEN p.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g
    } END AS came,
    r.effective_to IS NOT NULL AND r.effective_to <= date($to) AND CASE WHEN r.went IS NOT NULL THEN r.went ELSE EXISTS {
      MATCH (a)<-[n:SUPERVISES]-(o)
      WHERE o <> s AND n.relationship_type = r.relationship_type AND n.effective_from >= r.effective_to AND n.effective_from <= r.effective_to + duration({days: $window})
        AND coalesce(n.vf, CASE WHEN n.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(n.vt, CASE WHEN n.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g
    } END AS went
  UNWIND CASE WHEN r.effective_from >= date($from) AND r.effective_from <= date($to) THEN [true] ELSE [] END
       + CASE WHEN r.effective_to >= date($from) AND r.effective_to <= date($to) THEN [false] ELSE [] END AS joined
  WITH r, a, starts, joined, CASE WHEN joined THEN r.effective_from ELSE r.effective_to END AS day, CASE WHEN joined THEN came ELSE went END AS moved
  ORDER BY day, a.license_number, a.id, r.relationship_type, r.effective_from, r.affiliate_role
  WITH r, a, joined, size([x IN starts WHERE x <= day]) - 1 AS period, moved
  WITH joined, period, count(*) AS n, count(CASE WHEN moved THEN 1 END) AS moved, collect([r, a])[$skip..$end] AS page
  // Lists, not maps: the driver decodes a map's keys with every row.
  RETURN collect([joined, period, n, moved, [x IN page | [elementId(x[0]), x[1].id, x[1].license_number, x[0].affiliate_role, x[0].relationship_type, toString(x[0].effective_from), toString(x[0].effective_to)]]]) AS periods
}
RETURN before, periods
