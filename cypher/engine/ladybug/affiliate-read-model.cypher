// LadybugDB: recomputes the supervision read model (`sup`) of every credential in $states: its
// supervising relationships, each as supervisor id, affiliate_role, relationship_type,
// effective_from and effective_to (empty while open) joined by tabs, the relationships joined by
// line breaks; null when none. Reads of supervisors, affiliations, the hierarchy and the licensee
// shape start from this key-read property instead of walking SUPERVISES (a walk costs ~1.5 ms of
// CPU at 3M credentials, a key read ~0.3). Run at the end of every write unit that may change
// supervision in those states.
MATCH (c:LicenseCredential)
WHERE c.state IN $states
OPTIONAL MATCH (s:LicenseCredential)-[r:SUPERVISES]->(c)
WITH c, collect(s.id + '\t' + r.affiliate_role + '\t' + r.relationship_type + '\t' + CAST(r.effective_from AS STRING) + '\t' + coalesce(CAST(r.effective_to AS STRING), '')) AS sup
SET c.sup = CASE WHEN size(sup) = 0 THEN NULL ELSE list_to_string('\n', sup) END
