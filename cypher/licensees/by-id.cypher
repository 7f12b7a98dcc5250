// One credential by id ($id): its JSON read model and its supervisor list (see
// engine/ladybug/supervisor-list.cypher; null without supervisors); no row for an unknown id.
// One id per query, callers run them side by side: after UNWIND $ids LadybugDB costs ~0.5 ms of
// CPU a key at 3M credentials, and `IN $ids` scans the table. The jurisdiction's coverage comes
// from licensees/jurisdiction-coverage: joining its node here cost ~0.3 ms of CPU a read.
MATCH (c:LicenseCredential {id: $id})
OPTIONAL MATCH (x:SupervisorList {id: $id})
RETURN c.doc AS doc, x.entries AS supervisors
