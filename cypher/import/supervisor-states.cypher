// States outside $states holding supervisors of credentials in $states: their affiliate lists
// are ordered by those credentials' names, so they are recomputed with them.
MATCH (s:LicenseCredential)-[:SUPERVISES]->(a:LicenseCredential)
WHERE a.state IN $states AND NOT s.state IN $states
RETURN DISTINCT s.state AS state
