// Removes the supervisor lists of $state before they are written afresh
// (src/graph/ladybug/read-models.ts; LadybugDB only).
MATCH (x:SupervisorList)
WHERE x.state = $state
DELETE x
