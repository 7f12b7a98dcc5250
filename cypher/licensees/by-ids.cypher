// Credentials by id: the JSON read model of each, its supervision read model (`sup`: see
// engine/ladybug/affiliate-read-model.cypher) and its jurisdiction's relationship coverage.
// $ids: credential ids; unknown ids yield no row. The jurisdiction is found by its key, not over
// IN_JURISDICTION: every credential of a state points at one node, and LadybugDB joins that
// pattern through the whole relationship table (47 ms a lookup at 100k credentials, 0.7 by key).
UNWIND $ids AS id
MATCH (c:LicenseCredential {id: id})
MATCH (j:Jurisdiction {code: c.state})
RETURN c.doc AS doc, c.sup AS sup, j.relationship_coverage AS relationship_coverage
