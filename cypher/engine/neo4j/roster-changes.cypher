// Neo4j: the SUPERVISES relationships out of a credential that started or ended from $from to $to
// (both included), counted per period (periods begin on $starts, $from first) with those whose
// affiliate came from or went to another supervisor (as in roster-changes-traversal.cypher), each
// period's joined and left lists paged [$skip, $end) by day, then in byRosterChange order; and how
// many were in force on the day before $from. roster-changes-days.cypher answers without a filter,
// from day counts; this one reads every change in the range. Read
// by date from the (supervisor_id, effective_from) and (supervisor_id, effective_to) indexes, not
// the whole roster: the count before is the count in force on the day the SUPERVISES_IN_FORCE
// copies hold (held), corrected by the relationships begun or ended between that day and $from.
// $affiliate_role and $relationship_type filter when not null. No row when the credential is not
// on file; held null when the in-force copies are not built yet (then the traversal's query serves).
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
OPTIONAL MATCH (d:InForceDay {id: 'supervises'})
WITH d.date AS held
CALL () {
  MATCH (s:LicenseCredential {id: $id}) USING INDEX s:LicenseCredential(id) RETURN s
  UNION
  MATCH (s:Superseded {id: $id}) USING INDEX s:Superseded(id) RETURN s
}
WITH held, s WHERE coalesce(s.vf, CASE WHEN s.id IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(s.vt, CASE WHEN s.id IS NULL THEN $g ELSE $g + 1 END) > $g
// In force on held: the degree less the versions $g does not see (affiliates-in-force-total.cypher),
// or with a filter the credential's in-force index entries that match (affiliates-in-force-filtered.cypher).
CALL (s, held) {
  WITH s, held WHERE held IS NOT NULL AND $affiliate_role IS NULL AND $relationship_type IS NULL
  RETURN COUNT { (s)-[:SUPERVISES_IN_FORCE]->() } - COUNT { MATCH ()-[h:SUPERVISES_IN_FORCE]->() USING INDEX SEEK h:SUPERVISES_IN_FORCE(supervisor_id, vf) WHERE h.supervisor_id = $id AND h.vf > $g AND startNode(h) = s }
         - COUNT { MATCH ()-[h:SUPERVISES_IN_FORCE]->() USING INDEX SEEK h:SUPERVISES_IN_FORCE(supervisor_id, vt) WHERE h.supervisor_id = $id AND h.vt <= $g AND startNode(h) = s } AS n
  UNION ALL
  // The seek's key is null without a filter: the planner may seek before it applies a guard.
  WITH s, CASE WHEN held IS NOT NULL AND ($affiliate_role IS NOT NULL OR $relationship_type IS NOT NULL) THEN $id END AS filtered
  MATCH ()-[f:SUPERVISES_IN_FORCE]->()
  USING INDEX SEEK f:SUPERVISES_IN_FORCE(supervisor_id, page_key)
  WHERE f.supervisor_id = filtered AND f.page_key >= '' AND startNode(f) = s
    AND ($affiliate_role IS NULL OR f.affiliate_role = $affiliate_role)
    AND ($relationship_type IS NULL OR f.relationship_type = $relationship_type)
    AND coalesce(f.vf, CASE WHEN f.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(f.vt, CASE WHEN f.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g
  RETURN count(f) AS n
}
WITH s, held, sum(n) AS held_count, date($from) - duration({days: 1}) AS day_before
// Every relationship whose status differs between day_before and held, or that began or ended in
// the range, has a date between lo and hi: each start and each end there is a row of its own.
WITH s, held, held_count, day_before, [x IN $starts | date(x)] AS starts,
     CASE WHEN held < day_before THEN held ELSE day_before END AS lo,
     CASE WHEN held > date($to) THEN held ELSE date($to) END AS hi
OPTIONAL CALL (s, lo, hi) {
  MATCH ()-[r:SUPERVISES]->(a)
  USING INDEX SEEK r:SUPERVISES(supervisor_id, effective_from)
  WHERE r.supervisor_id = $id AND r.effective_from >= lo AND r.effective_from <= hi AND startNode(r) = s
    AND coalesce(r.vf, CASE WHEN r.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(r.vt, CASE WHEN r.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g
    AND ($affiliate_role IS NULL OR r.affiliate_role = $affiliate_role)
    AND ($relationship_type IS NULL OR r.relationship_type = $relationship_type)
  RETURN r, a, true AS joined, r.effective_from AS day
  UNION ALL
  MATCH ()-[r:SUPERVISES]->(a)
  USING INDEX SEEK r:SUPERVISES(supervisor_id, effective_to)
  WHERE r.supervisor_id = $id AND r.effective_to >= lo AND r.effective_to <= hi AND startNode(r) = s
    AND coalesce(r.vf, CASE WHEN r.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(r.vt, CASE WHEN r.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g
    AND ($affiliate_role IS NULL OR r.affiliate_role = $affiliate_role)
    AND ($relationship_type IS NULL OR r.relationship_type = $relationship_type)
  RETURN r, a, false AS joined, r.effective_to AS day
}
// A start between day_before and held changes the count in force between them by one, an end by
// one the other way; a relationship that ends on or before its start is never in force. A row in
// the range has its period: the last begun on or before its day.
WITH s, held, held_count, starts, r, a, joined, day,
     CASE WHEN r IS NULL OR r.effective_to <= r.effective_from THEN 0
          WHEN day > day_before AND day <= held THEN CASE WHEN joined THEN -1 ELSE 1 END
          WHEN day > held AND day <= day_before THEN CASE WHEN joined THEN 1 ELSE -1 END
          ELSE 0 END AS delta,
     CASE WHEN day >= date($from) AND day <= date($to) THEN size([x IN starts WHERE x <= day]) - 1 END AS period
// Whether a listed start came from another supervisor, or an end went to one: the relationship's
// transfer marks (roster-marks.cypher), or for a version from before them its counterparts at $g.
WITH s, held, held_count, r, a, joined, day, delta, period,
     CASE WHEN period IS NULL THEN false
          WHEN joined THEN CASE WHEN r.came IS NOT NULL THEN r.came ELSE EXISTS {
            MATCH (a)<-[p:SUPERVISES]-(o)
            WHERE o <> s AND p.relationship_type = r.relationship_type AND p.effective_to <= r.effective_from AND p.effective_to >= r.effective_from - duration({days: $window})
              AND coalesce(p.vf, CASE WHEN p.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(p.vt, CASE WHEN p.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g
          } END
          ELSE CASE WHEN r.went IS NOT NULL THEN r.went ELSE EXISTS {
            MATCH (a)<-[n:SUPERVISES]-(o)
            WHERE o <> s AND n.relationship_type = r.relationship_type AND n.effective_from >= r.effective_to AND n.effective_from <= r.effective_to + duration({days: $window})
              AND coalesce(n.vf, CASE WHEN n.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(n.vt, CASE WHEN n.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g
          } END END AS moved
// The lists' order: by day, then byRosterChange (the affiliate's licence number and id, then the
// relationship's type, start and role); rows outside the range sort by no key.
ORDER BY CASE WHEN period IS NOT NULL THEN day END,
         CASE WHEN period IS NULL THEN null
              ELSE a.license_number + '\u0000' + a.id + '\u0000' + r.relationship_type + '\u0000' + toString(r.effective_from) + '\u0000' + coalesce(r.affiliate_role, '\uffff') END
WITH held, held_count, joined, period, sum(delta) AS delta, count(*) AS n, count(CASE WHEN moved THEN 1 END) AS moved,
     collect(CASE WHEN period IS NOT NULL THEN [r, a] END)[$skip..$end] AS page
// Lists, not maps: the driver decodes a map's keys with every row.
WITH held, held_count, sum(delta) AS delta,
     collect(CASE WHEN period IS NOT NULL THEN [joined, period, n, moved, [x IN page | [elementId(x[0]), x[1].id, x[1].license_number, x[0].affiliate_role, x[0].relationship_type, toString(x[0].effective_from), toString(x[0].effective_to)]]] END) AS periods
RETURN held IS NOT NULL AS held, held_count + delta AS before, periods
