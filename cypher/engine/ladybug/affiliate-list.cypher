// LadybugDB: the affiliate lists (read model) of the supervising credentials in $state, written
// afresh after import/delete-affiliate-lists removed the state's: one entry per relationship
// supervised, as the affiliate's sort_key, id, relationship_type, effective_from, affiliate_role,
// effective_to (empty while open), license_number, license_type, full_name and business_name
// (tabs in names made spaces), joined by tabs; entries joined by line breaks, unordered: sorted
// as strings they are in the affiliates order, which the reader does once per list.
MATCH (s:LicenseCredential)-[r:SUPERVISES]->(a:LicenseCredential)
WHERE s.state = $state
WITH s, collect(a.sort_key + '\t' + a.id + '\t' + r.relationship_type + '\t' + CAST(r.effective_from AS STRING) + '\t' + r.affiliate_role + '\t' + coalesce(CAST(r.effective_to AS STRING), '') + '\t' + a.license_number + '\t' + coalesce(a.license_type, '') + '\t' + replace(coalesce(a.full_name, ''), '\t', ' ') + '\t' + replace(coalesce(a.business_name, ''), '\t', ' ')) AS entries
CREATE (:AffiliateList {id: s.id, state: s.state, entries: list_to_string('\n', entries)})
