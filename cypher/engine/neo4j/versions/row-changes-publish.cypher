// Neo4j: in the transaction that publishes generation $g, after refresh/counts.cypher moved the
// rows_version of $states: the lists the run kept for those versions become readable
// (row-changes.cypher). A list whose version an import took meanwhile stays unread.
// :param states => ['FL']
// :param g => 1
UNWIND $states AS code
MATCH (j:Jurisdiction {code: code})
MATCH (x:RowChanges {state: code, version: j.rows_version}) WHERE x.generation = $g
SET x.published = true
