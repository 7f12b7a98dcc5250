// One credential by id ($id): its JSON read model and its supervisor list (see
// src/graph/ladybug/read-models.ts; null without supervisors); no row for an unknown id.
// One key (two or more: engine/ladybug/records-by-ids, a query of two branches). The jurisdiction's coverage
// comes from engine/ladybug/jurisdiction-coverage: joining its node here cost ~0.3 ms of CPU a read.
MATCH (c:LicenseCredential {id: $id})
OPTIONAL MATCH (x:SupervisorList {id: $id})
RETURN c.id AS id, c.doc AS doc, x.entries AS supervisors
