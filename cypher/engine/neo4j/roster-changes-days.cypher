// Neo4j: the relationships out of a credential that started or ended from $from to $to (both
// included), counted per period (periods begin on $starts, $from first) from the supervisor's day
// counts (RosterDay nodes, roster-days.cypher) with those whose affiliate came from or went to
// another supervisor; each period's joined and left lists paged [$skip, $end), read in date order
// from the (supervisor_id, effective_from) and (supervisor_id, effective_to) indexes, so that a page
// costs a page: a list orders by its day, then byRosterChange (the affiliate's licence number and
// id, then the relationship's type, start and role: read for a page's rows and its last day's ties
// alone). And how many were in force on the day before
// $from: the count in force on the day the SUPERVISES_IN_FORCE copies hold (held), corrected by the
// day counts between that day and $from. Unfiltered (roster-changes.cypher filters by role and
// type). No row when the credential is not on file; built false before the day counts are built,
// held null before the in-force copies are (then roster-changes.cypher serves).
// :param id => 'FL|CQ0000001'
// :param from => '2026-01-01'
// :param to => '2026-12-31'
// :param starts => ['2026-01-01', '2026-07-01']
// :param skip => 0
// :param end => 10
// :param g => 0
OPTIONAL MATCH (d:InForceDay {id: 'supervises'})
OPTIONAL MATCH (m:Migration {id: 'roster-days'})
WITH d.date AS held, m IS NOT NULL AS built
CALL () {
  MATCH (s:LicenseCredential {id: $id}) USING INDEX s:LicenseCredential(id) RETURN s
  UNION
  MATCH (s:Superseded {id: $id}) USING INDEX s:Superseded(id) RETURN s
}
WITH held, built, s WHERE coalesce(s.vf, CASE WHEN s.id IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(s.vt, CASE WHEN s.id IS NULL THEN $g ELSE $g + 1 END) > $g
// In force on held: the degree less the versions $g does not see (affiliates-in-force-total.cypher).
WITH s, held, built, date($from) - duration({days: 1}) AS day_before, [x IN $starts | date(x)] AS starts,
     CASE WHEN held IS NOT NULL THEN COUNT { (s)-[:SUPERVISES_IN_FORCE]->() } - COUNT { MATCH ()-[h:SUPERVISES_IN_FORCE]->() USING INDEX SEEK h:SUPERVISES_IN_FORCE(supervisor_id, vf) WHERE h.supervisor_id = $id AND h.vf > $g AND startNode(h) = s }
         - COUNT { MATCH ()-[h:SUPERVISES_IN_FORCE]->() USING INDEX SEEK h:SUPERVISES_IN_FORCE(supervisor_id, vt) WHERE h.supervisor_id = $id AND h.vt <= $g AND startNode(h) = s } END AS held_count
// Every day whose count differs between day_before and held, or in the range, is between lo and hi.
// A day's `live` moves the count in force: backwards from held to day_before when held is later.
CALL (s, held, built, day_before, starts) {
  WITH CASE WHEN held < day_before THEN held ELSE day_before END AS lo,
       CASE WHEN held > date($to) THEN held ELSE date($to) END AS hi
  MATCH (d:RosterDay)
  USING INDEX SEEK d:RosterDay(supervisor_id, day)
  WHERE built AND d.supervisor_id = $id AND d.day >= lo AND d.day <= hi
    AND coalesce(d.vf, CASE WHEN d.day IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(d.vt, CASE WHEN d.day IS NULL THEN $g ELSE $g + 1 END) > $g
  WITH d,
       CASE WHEN d.day > day_before AND d.day <= held THEN -d.live WHEN d.day > held AND d.day <= day_before THEN d.live ELSE 0 END AS delta,
       CASE WHEN d.day >= date($from) AND d.day <= date($to) THEN size([x IN starts WHERE x <= d.day]) - 1 END AS period
  WITH period, sum(delta) AS delta, sum(d.joined) AS joined, sum(d.left) AS left, sum(d.came) AS came, sum(d.went) AS went
  RETURN sum(delta) AS delta, collect(CASE WHEN period IS NOT NULL THEN [period, joined, left, came, went] END) AS counts
}
// Each period's lists: a page of its starts, and of its ends, in date order from the indexes (the
// order names the seek's equal supervisor_id first, or the planner sorts the period instead).
CALL (s, starts, counts) {
  UNWIND counts AS c
  WITH s, c, starts[c[0]] AS first, coalesce(starts[c[0] + 1] - duration({days: 1}), date($to)) AS last
  CALL (s, c, first, last) {
    OPTIONAL CALL (s, c, first, last) {
      // The seek's key is null when the page is past the list: nothing is read.
      WITH s, first, last, CASE WHEN c[1] > $skip THEN $id END AS sid
      MATCH ()-[r:SUPERVISES]->(a)
      USING INDEX SEEK r:SUPERVISES(supervisor_id, effective_from)
      WHERE r.supervisor_id = sid AND r.effective_from >= first AND r.effective_from <= last AND startNode(r) = s
        AND coalesce(r.vf, CASE WHEN r.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(r.vt, CASE WHEN r.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g
      WITH r, a
      ORDER BY r.supervisor_id, r.effective_from, a.license_number + '\u0000' + a.id + '\u0000' + r.relationship_type + '\u0000' + toString(r.effective_from) + '\u0000' + coalesce(r.affiliate_role, '\uffff')
      SKIP $skip LIMIT $end - $skip
      RETURN r, a
    }
    WITH c, collect(CASE WHEN r IS NOT NULL THEN [elementId(r), a.id, a.license_number, r.affiliate_role, r.relationship_type, toString(r.effective_from), toString(r.effective_to)] END) AS page
    RETURN [true, c[0], c[1], c[3], page] AS list
    UNION ALL
    OPTIONAL CALL (s, c, first, last) {
      // The seek's key is null when the page is past the list: nothing is read.
      WITH s, first, last, CASE WHEN c[2] > $skip THEN $id END AS sid
      MATCH ()-[r:SUPERVISES]->(a)
      USING INDEX SEEK r:SUPERVISES(supervisor_id, effective_to)
      WHERE r.supervisor_id = sid AND r.effective_to >= first AND r.effective_to <= last AND startNode(r) = s
        AND coalesce(r.vf, CASE WHEN r.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(r.vt, CASE WHEN r.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g
      WITH r, a
      ORDER BY r.supervisor_id, r.effective_to, a.license_number + '\u0000' + a.id + '\u0000' + r.relationship_type + '\u0000' + toString(r.effective_from) + '\u0000' + coalesce(r.affiliate_role, '\uffff')
      SKIP $skip LIMIT $end - $skip
      RETURN r, a
    }
    WITH c, collect(CASE WHEN r IS NOT NULL THEN [elementId(r), a.id, a.license_number, r.affiliate_role, r.relationship_type, toString(r.effective_from), toString(r.effective_to)] END) AS page
    RETURN [false, c[0], c[2], c[4], page] AS list
  }
  // Lists, not maps: the driver decodes a map's keys with every row.
  RETURN collect(list) AS periods
}
RETURN built, held IS NOT NULL AS held, held_count + coalesce(delta, 0) AS before, periods
