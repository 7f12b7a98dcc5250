// A supervisor's roster month by month, from the month holding $from to the one holding $to (as
// the API's roster-history): relationships begun (joined) and ended (left) in each month, transfers
// in and out (the affiliate's relationship of the same type under another supervisor ended at most
// 90 days before a start, or begun at most 90 days after an end), and the count in force on the
// month's last day. Only the published generation's versions: a refresh's unpublished or replaced
// ones are left out by the two conditions on vf and vt.
// :params {state: 'TX', license_number: '9089631-B', from: '2026-01-01', to: '2026-06-30'}
OPTIONAL MATCH (snapshot:Snapshot {id: 'graph'})
WITH coalesce(snapshot.generation, 0) AS g
MATCH (head:LicenseCredential {state: $state, license_number: $license_number})
CALL (head) {
  MATCH (s:LicenseCredential {id: head.id}) RETURN s
  UNION
  MATCH (s:Superseded {id: head.id}) RETURN s
}
WITH g, s WHERE coalesce(s.vf, CASE WHEN s.id IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(s.vt, CASE WHEN s.id IS NULL THEN g ELSE g + 1 END) > g
WITH g, s, date.truncate('month', date($from)) AS first, date.truncate('month', date($to)) AS last
UNWIND range(0, (last.year - first.year) * 12 + last.month - first.month) AS m
WITH g, s, first + duration({months: m}) AS start
WITH g, s, start, start + duration({months: 1}) - duration({days: 1}) AS end
CALL (g, s, start, end) {
  MATCH (s)-[r:SUPERVISES]->(a)
  WHERE coalesce(r.vf, CASE WHEN r.relationship_type IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(r.vt, CASE WHEN r.relationship_type IS NULL THEN g ELSE g + 1 END) > g
  WITH g, s, start, end, r, a,
       start <= r.effective_from <= end AS joined,
       r.effective_to IS NOT NULL AND start <= r.effective_to <= end AS left
  RETURN count(CASE WHEN joined THEN 1 END) AS joined,
         count(CASE WHEN left THEN 1 END) AS left,
         count(CASE WHEN r.effective_from <= end AND (r.effective_to IS NULL OR r.effective_to > end) THEN 1 END) AS in_force_at_end,
         count(CASE WHEN joined AND EXISTS {
           MATCH (a)<-[p:SUPERVISES]-(o) WHERE o <> s AND coalesce(p.vf, CASE WHEN p.relationship_type IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(p.vt, CASE WHEN p.relationship_type IS NULL THEN g ELSE g + 1 END) > g
             AND p.relationship_type = r.relationship_type AND r.effective_from - duration({days: 90}) <= p.effective_to <= r.effective_from
         } THEN 1 END) AS transfers_in,
         count(CASE WHEN left AND EXISTS {
           MATCH (a)<-[n:SUPERVISES]-(o) WHERE o <> s AND coalesce(n.vf, CASE WHEN n.relationship_type IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(n.vt, CASE WHEN n.relationship_type IS NULL THEN g ELSE g + 1 END) > g
             AND n.relationship_type = r.relationship_type AND r.effective_to <= n.effective_from <= r.effective_to + duration({days: 90})
         } THEN 1 END) AS transfers_out
}
RETURN toString(start) AS period_start, toString(end) AS period_end, joined, left, in_force_at_end, transfers_in, transfers_out
ORDER BY period_start
