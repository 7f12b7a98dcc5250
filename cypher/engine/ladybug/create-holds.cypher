// LadybugDB only: the licensees of the credentials a refresh created, as one COPY (see
// create-links). Columns: from (licensee id), to (credential id).
COPY HOLDS
// @from
