// LadybugDB: supervisor lists built by src/ingest/read-models.ts, as a COPY into the node table.
// Columns: id (the supervised credential), state, entries (src/ingest/read-models.ts).
COPY SupervisorList
// @from
