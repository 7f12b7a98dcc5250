// Neo4j: how many affiliates a credential has in force on $today, from the SUPERVISES_IN_FORCE
// degree stored at it (no expansion); no row when the in-force relationships hold another day.
// :param id => 'FL|CQ0000001'
// :param today => '2026-11-26'
MATCH (:InForceDay {id: 'supervises', date: date($today)})
OPTIONAL MATCH (s:LicenseCredential {id: $id})
RETURN COUNT { (s)-[:SUPERVISES_IN_FORCE]->() } AS total
