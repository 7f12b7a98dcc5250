// Neo4j, in a refresh run of generation $g: import/delete-demo-credentials.cypher, the state's
// demo credentials and their SUPERVISES relationships ending at $g (removed once no reader sees
// them). Gives the ids of the credentials whose SUPERVISES_IN_FORCE follow.
// :param state => 'FL'
// :param g => 1
MATCH (j:Jurisdiction {code: $state})<-[:IN_JURISDICTION]-(c:LicenseCredential)
WHERE c.source = 'demo'
REMOVE c:LicenseCredential
SET c:Superseded:Versioned, c.vt = $g
WITH c
CALL (c) {
  MATCH (c)-[e:SUPERVISES]-(x)
  WHERE e.vt IS NULL
  SET e.vt = $g
  RETURN collect(x.id) AS others
}
RETURN c.id AS id, others
