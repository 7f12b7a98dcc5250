// LadybugDB: affiliate lists built by src/graph/ladybug/read-models.ts, as a COPY into the node table.
// Columns: id (the supervising credential), state, entries (src/graph/ladybug/read-models.ts).
COPY AffiliateList
// @from
