// Neo4j: what a refresh that never published left (versions from after the published generation
// $published): its new versions and relationships go, what it superseded or ended is restored.
// Each statement commits in batches; run again, it finds nothing.
// :param published => 0
MATCH ()-[r:SUPERVISES]->() WHERE r.vf > $published
CALL (r) { DELETE r } IN TRANSACTIONS OF 10000 ROWS;
MATCH ()-[f:SUPERVISES_IN_FORCE]->() WHERE f.vf > $published
CALL (f) { DELETE f } IN TRANSACTIONS OF 10000 ROWS;
MATCH (d:RosterDay) WHERE d.vf > $published
CALL (d) { DELETE d } IN TRANSACTIONS OF 10000 ROWS;
MATCH (d:RosterDay) WHERE d.vt > $published
CALL (d) { REMOVE d.vt } IN TRANSACTIONS OF 10000 ROWS;
// After their relationships: a dense brokerage's new version holds tens of thousands of them.
MATCH (c:Versioned) WHERE c.vf > $published
CALL (c) { DETACH DELETE c } IN TRANSACTIONS OF 2000 ROWS;
MATCH (c:Superseded) WHERE c.vt > $published
CALL (c) { REMOVE c:Superseded, c.vt SET c:LicenseCredential } IN TRANSACTIONS OF 2000 ROWS;
MATCH ()-[r:SUPERVISES]->() WHERE r.vt > $published
CALL (r) { REMOVE r.vt } IN TRANSACTIONS OF 10000 ROWS;
MATCH ()-[f:SUPERVISES_IN_FORCE]->() WHERE f.vt > $published
CALL (f) { REMOVE f.vt } IN TRANSACTIONS OF 10000 ROWS;
MATCH (l:Licensee:Versioned) WHERE l.vf > $published AND NOT (l)-[:HOLDS]->()
CALL (l) { DETACH DELETE l } IN TRANSACTIONS OF 10000 ROWS;
MATCH (c:Pending) WHERE c.pg > $published
CALL (c) { REMOVE c:Pending, c.pg, c.p_license_number_display, c.p_license_type_display, c.p_status, c.p_status_normalized, c.p_issue_date, c.p_expiration_date, c.p_address_kind, c.p_address_line1, c.p_address_line2, c.p_address_city, c.p_address_county, c.p_address_region, c.p_address_postal_code, c.p_address_country, c.p_row_hash, c.p_source, c.p_left_source_on, c.sg, c.s_snapshot_date, c.s_last_verified, c.s_notes } IN TRANSACTIONS OF 2000 ROWS;
// A dead run's touch stamp goes: the rows it marked read their values as before it (touch-listed.cypher).
MATCH (s:TouchStamp) WHERE s.g > $published
DETACH DELETE s
