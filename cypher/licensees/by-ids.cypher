// Credentials by id: the JSON read model of each and its jurisdiction's relationship coverage.
// $ids: credential ids; unknown ids yield no row.
UNWIND $ids AS id
MATCH (c:LicenseCredential {id: id})-[:IN_JURISDICTION]->(j:Jurisdiction)
RETURN c.doc AS doc, j.relationship_coverage AS relationship_coverage
