// Neo4j: a SUPERVISES_IN_FORCE relationship beside each SUPERVISES link into the credentials $ids
// (every version of each) in force on $day that has none, with the link's versions (vf, vt: it is
// seen when the link is), and the end of a link's version carried to the one beside it. Its page_key orders a supervisor's affiliates as the affiliates
// page does (the affiliate's sort key and id, then the link's type, start, role and end; U+0000
// sorts before every character a key holds, U+FFFF after, as nulls sort last), read from the
// index on (supervisor_id, page_key). The same expression is in in-force-drop.cypher and
// cypher/schema/neo4j.cypher.
// The dates are read through date(): as bare properties the planner may seek the date index for
// every link of the day instead of expanding from the affiliate (cached from a small graph, that
// plan made a 8,514-row import time out).
// :param ids => ['FL|CQ0000002']
// :param day => '2026-11-26'
UNWIND $ids AS id
CALL (id) {
  MATCH (a:LicenseCredential {id: id}) USING INDEX a:LicenseCredential(id) RETURN a
  UNION
  MATCH (a:Superseded {id: id}) USING INDEX a:Superseded(id) RETURN a
}
MATCH (s)-[r:SUPERVISES]->(a)
WHERE date(r.effective_from) <= date($day) AND (r.effective_to IS NULL OR date(r.effective_to) > date($day))
WITH s, r, a, a.sort_key + '\u0000' + a.id + '\u0000' + r.relationship_type + '\u0000' + toString(r.effective_from) + '\u0000' + coalesce(r.affiliate_role, '\uffff') + '\u0000' + coalesce(toString(r.effective_to), '\uffff') AS key
OPTIONAL MATCH (s)-[f:SUPERVISES_IN_FORCE]->(a)
WHERE f.page_key = key AND coalesce(f.vf, -1) = coalesce(r.vf, -1)
WITH s, r, a, key, head(collect(f)) AS f
FOREACH (_ IN CASE WHEN f IS NULL THEN [1] ELSE [] END |
  CREATE (s)-[:SUPERVISES_IN_FORCE {supervisor_id: s.id, page_key: key, affiliate_role: r.affiliate_role, relationship_type: r.relationship_type, effective_from: r.effective_from, effective_to: r.effective_to, vf: r.vf, vt: r.vt}]->(a))
FOREACH (_ IN CASE WHEN f IS NOT NULL AND coalesce(f.vt, -1) <> coalesce(r.vt, -1) THEN [1] ELSE [] END |
  SET f.vt = r.vt)
