// Neo4j: how many affiliates a credential has in force on $today, from the SUPERVISES_IN_FORCE
// degree stored at it (no expansion); no row when the in-force relationships hold another day.
// :param id => 'FL|CQ0000001'
// :param today => '2026-11-26'
// :param g => 0
MATCH (:InForceDay {id: 'supervises', date: date($today)})
// The credential's version $g sees (a refresh's old one stays readable under Superseded until published).
OPTIONAL CALL () {
  CALL () {
    MATCH (s:LicenseCredential {id: $id}) USING INDEX s:LicenseCredential(id) RETURN s
    UNION
    MATCH (s:Superseded {id: $id}) USING INDEX s:Superseded(id) RETURN s
  }
  WITH s WHERE coalesce(s.vf, CASE WHEN s.id IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(s.vt, CASE WHEN s.id IS NULL THEN $g ELSE $g + 1 END) > $g
  RETURN s
}
// Less the versions $g does not see, as in affiliates-in-force.cypher.
RETURN COUNT { (s)-[:SUPERVISES_IN_FORCE]->() } - COUNT { MATCH ()-[h:SUPERVISES_IN_FORCE]->() USING INDEX SEEK h:SUPERVISES_IN_FORCE(supervisor_id, vf) WHERE h.supervisor_id = $id AND h.vf > $g AND startNode(h) = s }
       - COUNT { MATCH ()-[h:SUPERVISES_IN_FORCE]->() USING INDEX SEEK h:SUPERVISES_IN_FORCE(supervisor_id, vt) WHERE h.supervisor_id = $id AND h.vt <= $g AND startNode(h) = s } AS total
