// The supervisor lists (see engine/neo4j/supervisor-list.cypher) of the credentials with these ids
// ($ids) that have supervisors, in no particular order: read beside licensees/docs-by-ids, as
// a second query because an OPTIONAL MATCH after UNWIND is a hash join over the whole table on
// LadybugDB (it exhausted a 384 MB buffer pool at 3M credentials).
UNWIND $ids AS id
MATCH (x:SupervisorList {id: id})
RETURN x.id AS id, x.entries AS supervisors
