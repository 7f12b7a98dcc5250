// LadybugDB only: the IN_JURISDICTION half of refresh/link-created-credentials.cypher as a COPY
// (see create-links).
// Columns: from (credential id), to (jurisdiction code).
COPY IN_JURISDICTION
// @from
