// Neo4j: the versions no reader sees any more, once generation $published has been published for
// longer than a request reads one (versions.ts): superseded credentials and ended relationships
// go, and what is current loses its marks (the versioned full-text index stays small). In batches.
// :param published => 1
MATCH (c:Superseded) WHERE c.vt <= $published
CALL (c) { DETACH DELETE c } IN TRANSACTIONS OF 2000 ROWS;
MATCH ()-[r:SUPERVISES]->() WHERE r.vt <= $published
CALL (r) { DELETE r } IN TRANSACTIONS OF 10000 ROWS;
MATCH ()-[f:SUPERVISES_IN_FORCE]->() WHERE f.vt <= $published
CALL (f) { DELETE f } IN TRANSACTIONS OF 10000 ROWS;
MATCH ()-[r:SUPERVISES]->() WHERE r.vf <= $published
CALL (r) { REMOVE r.vf } IN TRANSACTIONS OF 10000 ROWS;
MATCH ()-[f:SUPERVISES_IN_FORCE]->() WHERE f.vf <= $published
CALL (f) { REMOVE f.vf } IN TRANSACTIONS OF 10000 ROWS;
MATCH (c:Versioned) WHERE c.vf <= $published AND c.vt IS NULL
CALL (c) { REMOVE c:Versioned, c.vf } IN TRANSACTIONS OF 10000 ROWS
