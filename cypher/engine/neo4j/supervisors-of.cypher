// Neo4j: the supervisors of the current relationships into the credentials $ids, whose day counts
// an import in place counts again whole (roster-days.cypher with $supervisors): it may have moved a
// relationship's date, whose former day no current relationship names.
// :param ids => ['FL|SL0000001']
UNWIND $ids AS id
MATCH (:LicenseCredential {id: id})<-[r:SUPERVISES]-()
WHERE r.vt IS NULL
RETURN DISTINCT r.supervisor_id AS id
