// Neo4j: each supervisor and day of the relationships into the credentials $ids, the run's own and
// those it ended at $g included: the day counts a write of those affiliates may change
// (roster-days.cypher counts them again, each once however many affiliates name it).
// :param ids => ['FL|SL0000001']
// :param g => null
UNWIND $ids AS id
CALL (id) {
  MATCH (a:LicenseCredential {id: id}) USING INDEX a:LicenseCredential(id) RETURN a
  UNION
  MATCH (a:Superseded {id: id}) USING INDEX a:Superseded(id) RETURN a
}
MATCH (a)<-[r:SUPERVISES]-()
WHERE r.vt IS NULL OR r.vt = $g
UNWIND [r.effective_from, r.effective_to] AS day
WITH DISTINCT r.supervisor_id AS sid, day WHERE day IS NOT NULL
RETURN sid, toString(day) AS day
