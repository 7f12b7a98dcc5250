// Neo4j: the versions no reader sees any more, once every live reader reads generation $published
// or later (versions.ts, readers-behind.cypher): superseded credentials and ended relationships
// go, what is current loses its marks, and pending values (overlay-credentials.cypher) become the
// credential's own. In batches. First it says so (`collected`: an export at an earlier generation
// may have lost rows) and forgets readers long gone.
// :param published => 1
MATCH (s:Snapshot {id: 'graph'})
SET s.collected = CASE WHEN coalesce(s.collected, 0) > $published THEN s.collected ELSE $published END;
MATCH (r:GraphReader) WHERE r.beat_at < datetime() - duration({minutes: 10})
DELETE r;
MATCH ()-[r:SUPERVISES]->() WHERE r.vt <= $published
CALL (r) { DELETE r } IN TRANSACTIONS OF 10000 ROWS;
MATCH ()-[f:SUPERVISES_IN_FORCE]->() WHERE f.vt <= $published
CALL (f) { DELETE f } IN TRANSACTIONS OF 10000 ROWS;
MATCH (d:RosterDay) WHERE d.vt <= $published
CALL (d) { DELETE d } IN TRANSACTIONS OF 10000 ROWS;
MATCH (d:RosterDay) WHERE d.vf <= $published
CALL (d) { REMOVE d.vf } IN TRANSACTIONS OF 10000 ROWS;
// After their ended relationships: a superseded brokerage's tens of thousands would otherwise go
// in the batch that deletes it.
MATCH (c:Superseded) WHERE c.vt <= $published
CALL (c) { DETACH DELETE c } IN TRANSACTIONS OF 2000 ROWS;
MATCH ()-[r:SUPERVISES]->() WHERE r.vf <= $published
CALL (r) { REMOVE r.vf } IN TRANSACTIONS OF 10000 ROWS;
MATCH ()-[f:SUPERVISES_IN_FORCE]->() WHERE f.vf <= $published
CALL (f) { REMOVE f.vf } IN TRANSACTIONS OF 10000 ROWS;
MATCH (c:Versioned) WHERE c.vf <= $published AND c.vt IS NULL
CALL (c) { REMOVE c:Versioned, c.vf } IN TRANSACTIONS OF 10000 ROWS;
// Pending values become the credential's own in steps that a read at any moment sees alike, since a
// read sees each commit between two property reads (read committed): the own values take the pending
// ones first, with pg still set; then pg and the label go; the p_* values go at a later collection, once
// no read that saw pg can still read them (a query runs at most 10 minutes: GRAPH_QUERY_TIMEOUT_MS).
// A credential pending again since (pg set by a later run) keeps its new values.
MATCH (c:Promoted) WHERE c.promoted_at < datetime() - duration({minutes: 11})
CALL (c) {
  REMOVE c:Promoted, c.promoted_at
  WITH c WHERE c.pg IS NULL
  REMOVE c.p_license_number_display, c.p_license_type_display, c.p_status, c.p_status_normalized, c.p_issue_date, c.p_expiration_date, c.p_address_kind, c.p_address_line1, c.p_address_line2, c.p_address_city, c.p_address_county, c.p_address_region, c.p_address_postal_code, c.p_address_country, c.p_row_hash, c.p_source, c.p_left_source_on
} IN TRANSACTIONS OF 10000 ROWS;
MATCH (c:Pending) WHERE c.pg <= $published
CALL (c) {
  SET c.license_number_display = c.p_license_number_display,
      c.license_type_display = c.p_license_type_display,
      c.status = c.p_status,
      c.status_normalized = c.p_status_normalized,
      c.issue_date = c.p_issue_date,
      c.expiration_date = c.p_expiration_date,
      c.address_kind = c.p_address_kind,
      c.address_line1 = c.p_address_line1,
      c.address_line2 = c.p_address_line2,
      c.address_city = c.p_address_city,
      c.address_county = c.p_address_county,
      c.address_region = c.p_address_region,
      c.address_postal_code = c.p_address_postal_code,
      c.address_country = c.p_address_country,
      c.row_hash = c.p_row_hash,
      c.source = c.p_source,
      c.left_source_on = c.p_left_source_on
} IN TRANSACTIONS OF 2000 ROWS;
MATCH (c:Pending) WHERE c.pg <= $published
CALL (c) {
  REMOVE c:Pending, c.pg
  SET c:Promoted, c.promoted_at = datetime()
} IN TRANSACTIONS OF 10000 ROWS
