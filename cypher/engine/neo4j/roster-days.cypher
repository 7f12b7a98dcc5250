// Neo4j: a roster's day counts (RosterDay nodes, one per supervisor and day with a start or an end),
// which roster-changes-days.cypher sums per period instead of reading each relationship: how many
// began (joined) and ended (left) on the day, of those how many came from or went to another
// supervisor (the transfer marks, roster-marks.cypher, set first), and `live`: the starts less the
// ends of those ever in force (an end after the start), by which the count in force moves. A day
// count hangs on the relationships out of its supervisor dated that day: recounted for each of
// $pairs ([supervisor id, day]: those of a write's affiliates, roster-day-pairs.cypher), or for the
// supervisors $supervisors every day, in one pass over each one's relationships
// (a build, or an import in place: current versions, $g null). In a refresh of generation $g a changed
// count is a version: the one readers see ends at $g and one from $g holds the new counts (or none,
// when the day has none left); a version the run wrote changes in place. $g null: in place.
// :param pairs => [['FL|CQ0000001', '2026-01-02']]
// :param supervisors => null
// :param g => null
CALL () {
  // A write's supervisors and days (roster-day-pairs.cypher), counted again.
  UNWIND coalesce($pairs, []) AS pair
  WITH pair[0] AS sid, date(pair[1]) AS day
  // The supervisor's version the counts are for: $g's, or the current one.
  OPTIONAL CALL (sid) {
    MATCH (s:LicenseCredential {id: sid}) USING INDEX s:LicenseCredential(id) RETURN s
    UNION
    MATCH (s:Superseded {id: sid}) USING INDEX s:Superseded(id) RETURN s
  }
  WITH sid, day, collect(CASE WHEN CASE WHEN $g IS NULL THEN s:LicenseCredential ELSE coalesce(s.vf, 0) <= $g AND coalesce(s.vt, $g + 1) > $g END THEN s END)[0] AS s
  CALL (sid, day, s) {
    OPTIONAL MATCH ()-[r:SUPERVISES]->()
    USING INDEX SEEK r:SUPERVISES(supervisor_id, effective_from)
    WHERE r.supervisor_id = sid AND r.effective_from = day AND startNode(r) = s
      AND CASE WHEN $g IS NULL THEN r.vt IS NULL ELSE coalesce(r.vf, 0) <= $g AND coalesce(r.vt, $g + 1) > $g END
    RETURN count(r) AS joined, count(CASE WHEN r.came THEN 1 END) AS came, count(CASE WHEN r IS NOT NULL AND (r.effective_to IS NULL OR r.effective_to > r.effective_from) THEN 1 END) AS starts
  }
  CALL (sid, day, s) {
    OPTIONAL MATCH ()-[r:SUPERVISES]->()
    USING INDEX SEEK r:SUPERVISES(supervisor_id, effective_to)
    WHERE r.supervisor_id = sid AND r.effective_to = day AND startNode(r) = s
      AND CASE WHEN $g IS NULL THEN r.vt IS NULL ELSE coalesce(r.vf, 0) <= $g AND coalesce(r.vt, $g + 1) > $g END
    RETURN count(r) AS left, count(CASE WHEN r.went THEN 1 END) AS went, count(CASE WHEN r.effective_to > r.effective_from THEN 1 END) AS ends
  }
  RETURN sid, day, joined, left, came, went, starts - ends AS live
  UNION ALL
  // A build's supervisors (current versions; $g null): one pass over each one's relationships, by
  // day, and its days already counted, which may have none left.
  UNWIND coalesce($supervisors, []) AS sid
  MATCH (s:LicenseCredential {id: sid}) USING INDEX s:LicenseCredential(id)
  CALL (s) {
    MATCH (s)-[r:SUPERVISES]->()
    WHERE r.vt IS NULL
    UNWIND [[r.effective_from, 1, 0, CASE WHEN r.came THEN 1 ELSE 0 END, 0, CASE WHEN r.effective_to IS NULL OR r.effective_to > r.effective_from THEN 1 ELSE 0 END],
            [r.effective_to, 0, 1, 0, CASE WHEN r.went THEN 1 ELSE 0 END, CASE WHEN r.effective_to > r.effective_from THEN -1 ELSE 0 END]] AS x
    WITH x WHERE x[0] IS NOT NULL
    RETURN x
    UNION ALL
    MATCH (d:RosterDay)
    USING INDEX SEEK d:RosterDay(supervisor_id, day)
    WHERE d.supervisor_id = s.id AND d.day IS NOT NULL AND d.vt IS NULL
    RETURN [d.day, 0, 0, 0, 0, 0] AS x
  }
  WITH sid, x[0] AS day, sum(x[1]) AS joined, sum(x[2]) AS left, sum(x[3]) AS came, sum(x[4]) AS went, sum(x[5]) AS live
  RETURN sid, day, joined, left, came, went, live
}
OPTIONAL MATCH (d:RosterDay)
USING INDEX SEEK d:RosterDay(supervisor_id, day)
WHERE d.supervisor_id = sid AND d.day = day
  AND CASE WHEN $g IS NULL THEN d.vt IS NULL ELSE coalesce(d.vf, 0) <= $g AND coalesce(d.vt, $g + 1) > $g END
WITH sid, day, d, joined, left, came, went, live, joined + left = 0 AS none
WHERE CASE WHEN d IS NULL THEN NOT none ELSE d.joined <> joined OR d.left <> left OR d.came <> came OR d.went <> went OR d.live <> live END
CALL (d, joined, left, came, went, live, none) {
  WITH d WHERE d IS NOT NULL AND ($g IS NULL OR d.vf = $g)
  FOREACH (x IN CASE WHEN none THEN [d] ELSE [] END | DELETE x)
  FOREACH (x IN CASE WHEN none THEN [] ELSE [d] END | SET x.joined = joined, x.left = left, x.came = came, x.went = went, x.live = live)
}
CALL (sid, day, d, joined, left, came, went, live, none) {
  WITH sid, day, d WHERE d IS NULL OR ($g IS NOT NULL AND coalesce(d.vf, 0) < $g)
  FOREACH (x IN CASE WHEN d IS NULL THEN [] ELSE [d] END | SET x.vt = $g)
  FOREACH (_ IN CASE WHEN none THEN [] ELSE [1] END |
    CREATE (:RosterDay {supervisor_id: sid, day: day, joined: joined, left: left, came: came, went: went, live: live, vf: $g}))
}
