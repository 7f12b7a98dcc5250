// Credentials by id ($ids), two or more (engine/ladybug/by-id reads one): a row ('doc', id, its JSON
// read model) for each found, and a row ('supervisors', id, its supervisor list; see
// src/graph/ladybug/read-models.ts) for each with supervisors; in no particular order.
// One query, so documents and lists come from one snapshot. A query's fixed cost on LadybugDB
// (~0.3 ms of CPU) is paid once: 25 keys at 3M credentials took 2.6 ms of CPU, as two queries
// 3.4. The lists are a second branch, not an OPTIONAL MATCH: after UNWIND that is a hash join over
// the whole table on LadybugDB (it exhausted a 384 MB buffer pool).
UNWIND $ids AS id
MATCH (c:LicenseCredential {id: id})
RETURN 'doc' AS kind, c.id AS id, c.doc AS value
UNION ALL
UNWIND $ids AS id
MATCH (x:SupervisorList {id: id})
RETURN 'supervisors' AS kind, x.id AS id, x.entries AS value
