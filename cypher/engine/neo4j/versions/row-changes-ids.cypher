// Neo4j: inside a refresh of $state, the credentials whose search rows its generation $g changes:
// a version created or superseded, a pending value, a SUPERVISES opened or ended into it. At most
// $most + 1: more is a takeover, whose state search indexes read whole.
// :param state => 'FL'
// :param g => 1
// :param most => 100000
CALL () {
  MATCH (c:Versioned) WHERE (c:LicenseCredential OR c:Superseded) AND c.state = $state AND (c.vf = $g OR c.vt = $g) RETURN c.id AS id
  UNION
  MATCH (c:Pending) WHERE c.state = $state AND c.pg = $g RETURN c.id AS id
  UNION
  MATCH ()-[r:SUPERVISES]->(c) WHERE r.vf = $g AND c.state = $state RETURN c.id AS id
  UNION
  MATCH ()-[r:SUPERVISES]->(c) WHERE r.vt = $g AND c.state = $state RETURN c.id AS id
}
RETURN id LIMIT $most + 1
