// LadybugDB: the supervisor lists (read model) of the credentials in $state that have
// supervisors, written afresh after import/delete-read-models removed the state's: one entry per
// supervising relationship, in force or not, as supervisor id, affiliate_role,
// relationship_type, effective_from, effective_to (empty while open) and the supervisor's doc,
// joined by tabs (a JSON doc holds none), entries joined by line breaks. The licensee shape,
// supervisors, affiliations and the hierarchy read these by key instead of walking SUPERVISES
// (a walk costs ~1.5 ms of CPU at 3M credentials, a key read ~0.4).
MATCH (s:LicenseCredential)-[r:SUPERVISES]->(c:LicenseCredential)
WHERE c.state = $state
WITH c, collect(s.id + '\t' + r.affiliate_role + '\t' + r.relationship_type + '\t' + CAST(r.effective_from AS STRING) + '\t' + coalesce(CAST(r.effective_to AS STRING), '') + '\t' + s.doc) AS entries
CREATE (:SupervisorList {id: c.id, state: c.state, entries: list_to_string('\n', entries)})
