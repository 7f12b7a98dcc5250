// One credential by id ($id): its JSON read model and its supervisor list (see
// engine/neo4j/supervisor-list.cypher; null without supervisors); no row for an unknown id.
// One key (two or more: licensees/docs-by-ids and supervisor-lists-by-ids): one query where those
// are two, each costing ~0.4 ms of CPU on LadybugDB whatever it reads. The jurisdiction's coverage
// comes from licensees/jurisdiction-coverage: joining its node here cost ~0.3 ms of CPU a read.
MATCH (c:LicenseCredential {id: $id})
OPTIONAL MATCH (x:SupervisorList {id: $id})
RETURN c.id AS id, c.doc AS doc, x.entries AS supervisors
