// Neo4j, in a refresh run: how many SUPERVISES relationships each credential of $ids has (in and
// out, ended ones too: the degree Neo4j keeps per node, read without touching them), so that
// supersede.cypher runs over groups whose copies stay within a budget, however dense a brokerage.
// :param ids => ['FL|CQ0000001']
UNWIND $ids AS id
MATCH (h:LicenseCredential {id: id}) USING INDEX h:LicenseCredential(id)
RETURN id, COUNT { (h)-[:SUPERVISES]-() } AS degree
