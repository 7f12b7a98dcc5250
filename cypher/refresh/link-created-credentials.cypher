// Links the credentials a refresh created to their jurisdiction and holding licensee, once,
// after all of them and their licensees exist. Every credential of a state points at one
// jurisdiction node, and LadybugDB rewrites a node's whole adjacency list on each write to it
// (22 batched COPYs for a 450k-row file took 6 s, one took 1.7 s); and the first COPY after
// node loads pays for writing them out, once instead of once per batch.
// $state: code; $rows: maps with id (credential) and licensee_id.
UNWIND $rows AS r
MATCH (c:LicenseCredential {id: r.id})
MATCH (j:Jurisdiction {code: $state})
MATCH (l:Licensee {id: r.licensee_id})
CREATE (c)-[:IN_JURISDICTION]->(j)
CREATE (l)-[:HOLDS]->(c)
