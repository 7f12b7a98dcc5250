// Neo4j: the rows_version a refresh of $state publishes (its counts move it by one), once the
// lists a failed run left for it or after it are gone, and those older than the $keep latest.
// No row when the state has no jurisdiction yet: its first publish keeps no list.
// :param state => 'FL'
// :param keep => 16
MATCH (j:Jurisdiction {code: $state})
WITH coalesce(j.rows_version, 0) + 1 AS version
OPTIONAL MATCH (x:RowChanges {state: $state}) WHERE x.version >= version OR x.version <= version - $keep
DETACH DELETE x
RETURN DISTINCT version
