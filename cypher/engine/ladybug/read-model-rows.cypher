// LadybugDB: the supervising relationships whose read models are rebuilt, exported to a file
// (src/graph/ladybug/read-models.ts builds the lists from it and COPYs them in): those into credentials
// in $supervisor_list_states (their supervisor lists) and those of supervisors in
// $affiliate_list_states (their affiliate lists), with the affiliates' fields the affiliate lists
// hold. Aggregating the lists here (collect per credential) took 70 s at 3M credentials and more
// than a 2 GB buffer pool.
MATCH (s:LicenseCredential)-[r:SUPERVISES]->(a:LicenseCredential)
WHERE a.state IN $supervisor_list_states OR s.state IN $affiliate_list_states
RETURN s.id, s.state, a.id, a.state, r.affiliate_role, r.relationship_type, CAST(r.effective_from AS STRING),
       CAST(r.effective_to AS STRING), a.sort_key, a.license_number, a.license_type, a.full_name, a.business_name
