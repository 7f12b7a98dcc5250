// Neo4j: $holder's refresh ends without publishing (it failed): the next run removes its versions.
// :param holder => 'host:1234'
MATCH (s:Snapshot {id: 'graph'}) WHERE s.holder = $holder
REMOVE s.holder, s.heartbeat_at
