// LadybugDB: recomputes the affiliate list (`aff`) of every supervising credential in $states:
// one entry per relationship it supervises, as the affiliate's sort_key, id, relationship_type,
// effective_from, affiliate_role and effective_to (empty while open) joined by tabs, entries
// joined by line breaks, unordered (the reader sorts: the entries compare in the affiliates
// order). A credential that supervises nothing keeps none: run clear-supervisor-read-model first.
MATCH (s:LicenseCredential)-[r:SUPERVISES]->(a:LicenseCredential)
WHERE s.state IN $states
WITH s, collect(a.sort_key + '\t' + a.id + '\t' + r.relationship_type + '\t' + CAST(r.effective_from AS STRING) + '\t' + r.affiliate_role + '\t' + coalesce(CAST(r.effective_to AS STRING), '')) AS aff
SET s.aff = list_to_string('\n', aff)
