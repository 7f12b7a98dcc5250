// LadybugDB: affiliate lists built by src/ingest/read-models.ts, as a COPY into the node table.
// Columns: id (the supervising credential), state, entries (see engine/neo4j/affiliate-list).
COPY AffiliateList
// @from
