// Deletes business-name brokerages no credential is linked to any more.
MATCH (b:Brokerage)
OPTIONAL MATCH (c:LicenseCredential)-[a:AFFILIATED_WITH]->(b)
WITH b, count(a) AS linked
WHERE linked = 0
DELETE b
