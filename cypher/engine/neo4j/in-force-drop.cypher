// Neo4j: removes the SUPERVISES_IN_FORCE relationships into the credentials $ids (every version of
// each) that no longer match a SUPERVISES link in force on $day: ended, not begun, gone, or with
// another page key or version.
// page_key: the same expression as in in-force-add.cypher and cypher/schema/neo4j.cypher.
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
MATCH (s)-[f:SUPERVISES_IN_FORCE]->(a)
WHERE NOT EXISTS {
  MATCH (s)-[r:SUPERVISES]->(a)
  WHERE coalesce(r.vf, -1) = coalesce(f.vf, -1) AND date(r.effective_from) <= date($day) AND (r.effective_to IS NULL OR date(r.effective_to) > date($day))
    AND a.sort_key + '\u0000' + a.id + '\u0000' + r.relationship_type + '\u0000' + toString(r.effective_from) + '\u0000' + coalesce(r.affiliate_role, '\uffff') + '\u0000' + coalesce(toString(r.effective_to), '\uffff') = f.page_key
}
DELETE f
