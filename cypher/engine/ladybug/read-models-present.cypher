// One supervisor list, if any: none in a graph with relationships means the graph was written
// before the read models existed. No parameters.
MATCH (x:SupervisorList)
RETURN x.id AS id
LIMIT 1
