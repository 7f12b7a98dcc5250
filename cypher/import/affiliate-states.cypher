// States outside $states holding affiliates of credentials in $states: their supervisor lists
// hold those credentials' docs, so they are rebuilt with them.
MATCH (s:LicenseCredential)-[:SUPERVISES]->(a:LicenseCredential)
WHERE s.state IN $states AND NOT a.state IN $states
RETURN DISTINCT a.state AS state
