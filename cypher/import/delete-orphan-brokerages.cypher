// Deletes business-name brokerages no credential is linked to any more.
MATCH (b:Brokerage)
WHERE NOT EXISTS { MATCH (:LicenseCredential)-[:AFFILIATED_WITH]->(b) }
DELETE b
