// LadybugDB only: links new credentials to their licensees (merged by merge-licensees first), as a
// COPY (see create-links). Columns: from (licensee id), to (credential id).
COPY HOLDS
// @from
