// Removes the supervisor lists of $state before they are written afresh
// (engine/neo4j/supervisor-list.cypher, or src/ingest/read-models.ts on LadybugDB).
MATCH (x:SupervisorList)
WHERE x.state = $state
DELETE x
