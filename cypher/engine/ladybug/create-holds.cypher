// LadybugDB only: the HOLDS half of refresh/link-created-credentials.cypher as a COPY (see
// create-links). Columns: from (licensee id), to (credential id).
COPY HOLDS
// @from
