// Neo4j: after an import wrote credentials $ids in place, a refresh's pending snapshot date,
// verification time and notes (touch-credentials.cypher) are theirs no more.
// :param ids => ['FL|CQ0000001']
UNWIND $ids AS id
MATCH (c:LicenseCredential {id: id})
REMOVE c.sg, c.s_snapshot_date, c.s_last_verified, c.s_notes
