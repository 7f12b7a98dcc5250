// Neo4j, in a refresh run of generation $g: refresh/create-links.cypher, each new SUPERVISES
// relationship a version from $g, with its in-force copy (in-force-add.cypher's, the same page key)
// when it is in force on $day, the InForceDay date the run read (null: none is kept yet).
// $rows: supervisor_id, affiliate_id, relationship_type, effective_from, affiliate_role, source.
// :param g => 1
// :param day => '2026-11-01'
UNWIND $rows AS r
MATCH (s:LicenseCredential {id: r.supervisor_id}) USING INDEX s:LicenseCredential(id)
MATCH (a:LicenseCredential {id: r.affiliate_id}) USING INDEX a:LicenseCredential(id)
CREATE (s)-[l:SUPERVISES {supervisor_id: s.id, relationship_type: r.relationship_type, effective_from: date(r.effective_from), affiliate_role: r.affiliate_role, source: r.source, vf: $g}]->(a)
WITH s, l, a
WHERE $day IS NOT NULL AND l.effective_from <= date($day)
CREATE (s)-[:SUPERVISES_IN_FORCE {supervisor_id: s.id, page_key: a.sort_key + '\u0000' + a.id + '\u0000' + l.relationship_type + '\u0000' + toString(l.effective_from) + '\u0000' + coalesce(l.affiliate_role, '\uffff') + '\u0000' + '\uffff', affiliate_role: l.affiliate_role, relationship_type: l.relationship_type, effective_from: l.effective_from, effective_to: null, vf: l.vf, vt: null}]->(a)
