// LadybugDB: affiliate lists built by src/ingest/read-models.ts, as a COPY into the node table.
// Columns: id (the supervising credential), state, entries (src/ingest/read-models.ts).
COPY AffiliateList
// @from
