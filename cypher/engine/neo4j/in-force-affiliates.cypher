// Neo4j: the credentials of a state with supervision links or SUPERVISES_IN_FORCE relationships
// in: those whose in-force relationships a write to the state may change. $state: code.
MATCH (:Jurisdiction {code: $state})<-[:IN_JURISDICTION]-(a:LicenseCredential)
WHERE EXISTS { (a)<-[:SUPERVISES]-() } OR EXISTS { (a)<-[:SUPERVISES_IN_FORCE]-() }
RETURN a.id AS id
