// LadybugDB: the supervisor lists (read model) of the credentials in $state that have
// supervisors, written afresh after import/delete-supervisor-lists removed the state's: one
// entry per supervising relationship, in force or not, as supervisor id, affiliate_role,
// relationship_type, effective_from and effective_to (empty while open) joined by tabs, entries
// joined by line breaks. The licensee shape, supervisors, affiliations and the hierarchy read
// these by key instead of walking SUPERVISES (a walk costs ~1.5 ms of CPU at 3M credentials, a
// key read ~0.4). The supervisors' docs are read by key too: held here, FL's lists take more
// than a 1 GB buffer pool to write.
MATCH (s:LicenseCredential)-[r:SUPERVISES]->(c:LicenseCredential)
WHERE c.state = $state
WITH c, collect(s.id + '\t' + r.affiliate_role + '\t' + r.relationship_type + '\t' + CAST(r.effective_from AS STRING) + '\t' + coalesce(CAST(r.effective_to AS STRING), '')) AS entries
CREATE (:SupervisorList {id: c.id, state: c.state, entries: list_to_string('\n', entries)})
