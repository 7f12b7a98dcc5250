// LadybugDB only: links new credentials to their jurisdiction, as a COPY (see create-links).
// Columns: from (credential id), to (jurisdiction code).
COPY IN_JURISDICTION
// @from
