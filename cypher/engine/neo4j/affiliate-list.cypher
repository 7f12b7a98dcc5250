// Neo4j: the affiliate lists (read model) of the supervising credentials in $state, written afresh
// after import/delete-affiliate-lists removed the state's: one entry per relationship supervised,
// as the affiliate's sort_key, id, relationship_type, effective_from, affiliate_role, effective_to
// (empty while open), license_number, license_type, full_name and business_name (tabs and line
// breaks in them made spaces) joined by tabs, unordered: sorted as strings they are in the
// affiliates order, which the reader does once per list. LadybugDB builds the same entries from
// an export (src/ingest/read-models.ts).
MATCH (s:LicenseCredential)-[r:SUPERVISES]->(a:LicenseCredential)
WHERE s.state = $state
WITH s, collect(a.sort_key + '\t' + a.id + '\t' + r.relationship_type + '\t' + toString(r.effective_from) + '\t' + r.affiliate_role + '\t' + coalesce(toString(r.effective_to), '') + '\t' + a.license_number + '\t' + coalesce(a.license_type, '') + '\t' + replace(replace(replace(coalesce(a.full_name, ''), '\t', ' '), '\n', ' '), '\r', ' ') + '\t' + replace(replace(replace(coalesce(a.business_name, ''), '\t', ' '), '\n', ' '), '\r', ' ')) AS entries
CREATE (:AffiliateList {id: s.id, state: s.state, entries: entries})
