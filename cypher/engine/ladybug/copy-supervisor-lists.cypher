// LadybugDB: supervisor lists built by src/graph/ladybug/read-models.ts, as a COPY into the node table.
// Columns: id (the supervised credential), state, entries (src/graph/ladybug/read-models.ts).
COPY SupervisorList
// @from
