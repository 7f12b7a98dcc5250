// Removes the link from a jurisdiction to a source other than the one now configured.
// $rows: maps with state and source_id.
UNWIND $rows AS r
MATCH (o:Source)-[p:PUBLISHES]->(j:Jurisdiction {code: r.state})
WHERE o.id <> r.source_id
DELETE p
