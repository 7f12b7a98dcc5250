// LadybugDB only: the jurisdiction of the credentials a refresh created, as one COPY (see
// create-links).
// Columns: from (credential id), to (jurisdiction code).
COPY IN_JURISDICTION
// @from
