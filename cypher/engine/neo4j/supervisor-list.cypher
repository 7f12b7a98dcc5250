// Neo4j: the supervisor lists (read model) of the credentials in $state that have supervisors,
// written afresh after import/delete-supervisor-lists removed the state's: one entry per
// supervising relationship, in force or not, as supervisor id, affiliate_role, relationship_type,
// effective_from and effective_to (empty while open) joined by tabs. LadybugDB builds the same
// entries from an export (src/ingest/read-models.ts) and holds them joined by line breaks.
MATCH (s:LicenseCredential)-[r:SUPERVISES]->(c:LicenseCredential)
WHERE c.state = $state
WITH c, collect(s.id + '\t' + r.affiliate_role + '\t' + r.relationship_type + '\t' + toString(r.effective_from) + '\t' + coalesce(toString(r.effective_to), '')) AS entries
CREATE (:SupervisorList {id: c.id, state: c.state, entries: entries})
