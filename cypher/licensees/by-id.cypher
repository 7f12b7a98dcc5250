// One credential by id ($id): its JSON read model, its supervisor list (see
// engine/ladybug/supervisor-list.cypher; null without supervisors) and its jurisdiction's
// relationship coverage; no row for an unknown id. One id per query, callers run them side by
// side: after UNWIND $ids LadybugDB costs ~0.5 ms of CPU a key at 3M credentials, and `IN $ids`
// scans the table. The jurisdiction is found by its key, not over IN_JURISDICTION (every
// credential of a state points at one node, which LadybugDB joins through the whole table).
MATCH (c:LicenseCredential {id: $id})
MATCH (j:Jurisdiction {code: c.state})
OPTIONAL MATCH (x:SupervisorList {id: $id})
RETURN c.doc AS doc, x.entries AS supervisors, j.relationship_coverage AS relationship_coverage
