// Supervising relationships counted by the states of their two ends: which states' read models
// an import touches (supervisors elsewhere of its affiliates) and how large they are. No parameters.
MATCH (s:LicenseCredential)-[:SUPERVISES]->(a:LicenseCredential)
RETURN s.state AS supervisor_state, a.state AS affiliate_state, count(*) AS relationships
