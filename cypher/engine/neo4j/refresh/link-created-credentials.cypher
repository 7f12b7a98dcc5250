// Neo4j, in a refresh run: refresh/link-created-credentials.cypher, the jurisdiction merged by its
// code alone (the run writes its name and coverage when it publishes). $rows: id, licensee_id;
// $state: code.
// :param state => 'FL'
UNWIND $rows AS r
MATCH (c:LicenseCredential {id: r.id})
MERGE (j:Jurisdiction {code: $state})
WITH c, j, r
MATCH (l:Licensee {id: r.licensee_id})
CREATE (c)-[:IN_JURISDICTION]->(j)
CREATE (l)-[:HOLDS]->(c)
