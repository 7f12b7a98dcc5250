// Removes the supervisor lists of $state before engine/*/supervisor-list.cypher writes them afresh.
MATCH (x:SupervisorList)
WHERE x.state = $state
DELETE x
