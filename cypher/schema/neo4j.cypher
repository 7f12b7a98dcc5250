// Neo4j schema: uniqueness constraints on every key the queries enter by, and the indexes the
// filters need. Applied at start; IF NOT EXISTS makes it idempotent.
// First the index statements, alone: applied in one transaction, they are populated together, and
// the constraints after them populate theirs meanwhile (src/graph/neo4j/engine.ts, applySchema;
// decision 0032).
CREATE INDEX license_credential_state_number IF NOT EXISTS FOR (c:LicenseCredential) ON (c.state, c.license_number);
// Searches are the search index's (decision 0029): no query orders a state by sort_key or finds a brokerage by name.
DROP INDEX license_credential_state_sort IF EXISTS;
CREATE INDEX license_credential_source IF NOT EXISTS FOR (c:LicenseCredential) ON (c.source);
// Name search is the service's search index (src/search/, decision 0029), not the graph's: the
// full-text index it once read goes (docs/graph.md has the statement that makes one for Browser).
DROP INDEX license_credential_names IF EXISTS;
DROP INDEX license_credential_search IF EXISTS;
DROP INDEX license_credential_versions IF EXISTS;
// Versions (docs/graph.md): a superseded credential found by id, and the relationships a refresh
// writes, found by the generation they start or end at.
CREATE INDEX superseded_id IF NOT EXISTS FOR (c:Superseded) ON (c.id);
// What each refresh changed, per state and rows_version (versions/row-changes-write.cypher).
CREATE INDEX row_changes_version IF NOT EXISTS FOR (x:RowChanges) ON (x.state, x.version);
// Versioned nodes are found by their label (few, once a run's versions are collected): an index
// on them would cost every credential a refresh writes.
DROP INDEX superseded_state IF EXISTS;
DROP INDEX versioned_from IF EXISTS;
DROP INDEX no_grams_state IF EXISTS;
CREATE INDEX supervises_vf IF NOT EXISTS FOR ()-[r:SUPERVISES]-() ON (r.vf);
CREATE INDEX supervises_vt IF NOT EXISTS FOR ()-[r:SUPERVISES]-() ON (r.vt);
CREATE INDEX supervises_in_force_vf IF NOT EXISTS FOR ()-[f:SUPERVISES_IN_FORCE]-() ON (f.supervisor_id, f.vf);
CREATE INDEX supervises_in_force_vt IF NOT EXISTS FOR ()-[f:SUPERVISES_IN_FORCE]-() ON (f.supervisor_id, f.vt);
CREATE INDEX supervises_in_force_from IF NOT EXISTS FOR ()-[f:SUPERVISES_IN_FORCE]-() ON (f.vf);
CREATE INDEX supervises_in_force_to IF NOT EXISTS FOR ()-[f:SUPERVISES_IN_FORCE]-() ON (f.vt);
// The per-field TEXT indexes it replaces (twice as slow at 3M: every state's matches read to filter one).
DROP INDEX license_credential_f_full IF EXISTS;
DROP INDEX license_credential_f_last IF EXISTS;
DROP INDEX license_credential_f_business IF EXISTS;
DROP INDEX license_credential_f_first IF EXISTS;
DROP INDEX license_credential_f_city IF EXISTS;
DROP INDEX brokerage_f_name IF EXISTS;
// Range indexes hold no nulls: effective_to serves "ended by" filters, effective_from the in-force ones.
CREATE INDEX supervises_effective_to IF NOT EXISTS FOR ()-[r:SUPERVISES]-() ON (r.effective_to);
CREATE INDEX supervises_effective_from IF NOT EXISTS FOR ()-[r:SUPERVISES]-() ON (r.effective_from);
// No query seeks SUPERVISES by its role, source or type: each is read from a relationship reached
// another way (decision 0047).
DROP INDEX supervises_affiliate_role IF EXISTS;
DROP INDEX supervises_source IF EXISTS;
DROP INDEX supervises_relationship_type IF EXISTS;
// A roster's relationships by date (roster-changes.cypher): the supervisor's id on each SUPERVISES,
// set by every write and, on a graph written before it was, once below.
CREATE INDEX supervises_supervisor_from IF NOT EXISTS FOR ()-[r:SUPERVISES]-() ON (r.supervisor_id, r.effective_from);
CREATE INDEX supervises_supervisor_to IF NOT EXISTS FOR ()-[r:SUPERVISES]-() ON (r.supervisor_id, r.effective_to);
// Affiliates pages (cypher/engine/neo4j/affiliates-in-force.cypher): beside each SUPERVISES link
// in force on the InForceDay node's date, a SUPERVISES_IN_FORCE relationship whose page_key orders
// the supervisor's affiliates; writes keep them (src/graph/neo4j/in-force.ts), and the first read
// of another day moves them to it. A graph without the day (new, or written before it existed)
// gets them after the constraints below, once; a build cut short is dropped and made again.
// A roster's day counts (engine/neo4j/roster-days.cypher) by supervisor and day, and their
// versions by the generation they start or end at (few: an index holds no nulls).
CREATE INDEX roster_day IF NOT EXISTS FOR (d:RosterDay) ON (d.supervisor_id, d.day);
CREATE INDEX roster_day_vf IF NOT EXISTS FOR (d:RosterDay) ON (d.vf);
CREATE INDEX roster_day_vt IF NOT EXISTS FOR (d:RosterDay) ON (d.vt);
CREATE INDEX supervises_in_force_page IF NOT EXISTS FOR ()-[f:SUPERVISES_IN_FORCE]-() ON (f.supervisor_id, f.page_key);
// Uniqueness constraints on every key the queries enter by.
CREATE CONSTRAINT license_credential_id IF NOT EXISTS FOR (c:LicenseCredential) REQUIRE c.id IS UNIQUE;
CREATE CONSTRAINT licensee_id IF NOT EXISTS FOR (l:Licensee) REQUIRE l.id IS UNIQUE;
CREATE CONSTRAINT brokerage_id IF NOT EXISTS FOR (b:Brokerage) REQUIRE b.id IS UNIQUE;
CREATE CONSTRAINT jurisdiction_code IF NOT EXISTS FOR (j:Jurisdiction) REQUIRE j.code IS UNIQUE;
CREATE CONSTRAINT source_id IF NOT EXISTS FOR (s:Source) REQUIRE s.id IS UNIQUE;
CREATE CONSTRAINT import_run_id IF NOT EXISTS FOR (r:ImportRun) REQUIRE r.id IS UNIQUE;
CREATE CONSTRAINT migration_id IF NOT EXISTS FOR (m:Migration) REQUIRE m.id IS UNIQUE;
// The published generation (docs/graph.md, "Versions"), and the processes that read the graph, each
// reporting the oldest generation it may still read (readers.ts).
CREATE CONSTRAINT snapshot_id IF NOT EXISTS FOR (s:Snapshot) REQUIRE s.id IS UNIQUE;
CREATE CONSTRAINT graph_reader_id IF NOT EXISTS FOR (r:GraphReader) REQUIRE r.id IS UNIQUE;
CREATE CONSTRAINT in_force_day_id IF NOT EXISTS FOR (d:InForceDay) REQUIRE d.id IS UNIQUE;
// A refresh's values for the credentials it listed unchanged, one node a run (touch-listed.cypher).
CREATE CONSTRAINT touch_stamp_g IF NOT EXISTS FOR (s:TouchStamp) REQUIRE s.g IS UNIQUE;
MERGE (d:InForceDay {id: 'supervises'}) ON CREATE SET d.building_for = date();
MATCH (d:InForceDay {id: 'supervises'}) WHERE d.date IS NULL
MATCH ()-[f:SUPERVISES_IN_FORCE]->()
CALL (f) { DELETE f } IN TRANSACTIONS OF 10000 ROWS;
MATCH (d:InForceDay {id: 'supervises'}) WHERE d.date IS NULL
WITH d.building_for AS day
MATCH (s:LicenseCredential)-[r:SUPERVISES]->(a:LicenseCredential)
WHERE r.effective_from <= day AND (r.effective_to IS NULL OR r.effective_to > day)
CALL (s, r, a) {
  // page_key: the same expression as in cypher/engine/neo4j/in-force-add.cypher.
  CREATE (s)-[:SUPERVISES_IN_FORCE {supervisor_id: s.id,
    page_key: a.sort_key + '\u0000' + a.id + '\u0000' + r.relationship_type + '\u0000' + toString(r.effective_from) + '\u0000' + coalesce(r.affiliate_role, '\uffff') + '\u0000' + coalesce(toString(r.effective_to), '\uffff'),
    affiliate_role: r.affiliate_role, relationship_type: r.relationship_type, effective_from: r.effective_from, effective_to: r.effective_to, vf: r.vf, vt: r.vt}]->(a)
} IN TRANSACTIONS OF 10000 ROWS;
MATCH (d:InForceDay {id: 'supervises'}) WHERE d.date IS NULL
SET d.date = d.building_for REMOVE d.building_for;
// SUPERVISES written before they carried supervisor_id get it, in batches, once (a Migration node
// marks it done; a run cut short sets the rest at the next start).
OPTIONAL MATCH (m:Migration {id: 'supervises-supervisor-id'})
WITH m WHERE m IS NULL
MATCH (s)-[r:SUPERVISES]->()
WHERE r.supervisor_id IS NULL
CALL (s, r) { SET r.supervisor_id = s.id } IN TRANSACTIONS OF 10000 ROWS;
MERGE (:Migration {id: 'supervises-supervisor-id'});
// list_key, each SUPERVISES's place in a roster history's lists until decision 0047 (the lists
// order a page's ties from the affiliate), goes from a store written before it: once, in batches.
OPTIONAL MATCH (m:Migration {id: 'no-list-key'})
WITH m WHERE m IS NULL
MATCH ()-[r:SUPERVISES]->()
WHERE r.list_key IS NOT NULL
CALL (r) { REMOVE r.list_key } IN TRANSACTIONS OF 10000 ROWS;
MERGE (:Migration {id: 'no-list-key'});
MATCH (m:Migration {id: 'supervises-list-key'}) DELETE m;
// Transfer marks (engine/neo4j/roster-marks.cypher, which writes keep) on the SUPERVISES of a
// store written before them, or loaded by the offline importer: once, in batches of affiliates, in
// place (readers count a relationship without marks by its counterparts, the same answer). 90 is
// TRANSFER_WINDOW_DAYS (src/domain/changes.ts).
OPTIONAL MATCH (m:Migration {id: 'supervises-transfer-marks'})
WITH m WHERE m IS NULL
MATCH (a:LicenseCredential)
WHERE EXISTS { (a)<-[:SUPERVISES]-() }
CALL (a) {
  MATCH (a)<-[r:SUPERVISES]-(s)
  WHERE r.vt IS NULL AND r.came IS NULL
  SET r.came = EXISTS {
      MATCH (a)<-[p:SUPERVISES]-(o)
      WHERE o <> s AND p.vt IS NULL AND p.relationship_type = r.relationship_type AND p.effective_to <= r.effective_from AND p.effective_to >= r.effective_from - duration({days: 90})
    },
    r.went = r.effective_to IS NOT NULL AND EXISTS {
      MATCH (a)<-[n:SUPERVISES]-(o)
      WHERE o <> s AND n.vt IS NULL AND n.relationship_type = r.relationship_type AND n.effective_from >= r.effective_to AND n.effective_from <= r.effective_to + duration({days: 90})
    }
} IN TRANSACTIONS OF 2000 ROWS;
MERGE (:Migration {id: 'supervises-transfer-marks'});
// The NAME_GRAM postings name search once read go (decision 0029), once, in batches (a national
// graph held 30M), marked by a Migration node; a clean-up cut short runs again at the next start.
DROP INDEX name_gram_k IF EXISTS;
OPTIONAL MATCH (m:Migration {id: 'no-name-grams'})
WITH m WHERE m IS NULL
MATCH ()-[p:NAME_GRAM]->()
CALL (p) { DELETE p } IN TRANSACTIONS OF 10000 ROWS;
OPTIONAL MATCH (m:Migration {id: 'no-name-grams'})
WITH m WHERE m IS NULL
MATCH (c:NoGrams)
CALL (c) { REMOVE c:NoGrams } IN TRANSACTIONS OF 10000 ROWS;
MATCH (j:Jurisdiction) WHERE j.name_grams_pending IS NOT NULL
REMOVE j.name_grams_pending;
MERGE (:Migration {id: 'no-name-grams'});
MATCH (m:Migration {id: 'name-grams'}) DELETE m;
// Neo4j is read by traversal: the read models a database written before kept go (the lists and
// each credential's JSON doc), in batches (a national graph holds millions), with their schema.
// The doc's removal scans every credential, so it runs once, marked by a Migration node.
OPTIONAL MATCH (m:Migration {id: 'no-read-models'})
WITH m WHERE m IS NULL
MATCH (c:LicenseCredential) WHERE c.doc IS NOT NULL
CALL (c) { REMOVE c.doc } IN TRANSACTIONS OF 10000 ROWS;
MERGE (:Migration {id: 'no-read-models'});
MATCH (x:SupervisorList) CALL (x) { DETACH DELETE x } IN TRANSACTIONS OF 10000 ROWS;
MATCH (x:AffiliateList) CALL (x) { DETACH DELETE x } IN TRANSACTIONS OF 10000 ROWS;
DROP CONSTRAINT supervisor_list_id IF EXISTS;
DROP CONSTRAINT affiliate_list_id IF EXISTS;
DROP INDEX supervisor_list_state IF EXISTS;
DROP INDEX affiliate_list_state IF EXISTS
