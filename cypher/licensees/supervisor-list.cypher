// The supervisor list (see engine/ladybug/supervisor-list.cypher) of a credential ($id): its
// supervising relationships with each supervisor's doc; no row without supervisors.
MATCH (x:SupervisorList {id: $id})
RETURN x.entries AS supervisors
