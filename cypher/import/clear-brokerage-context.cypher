// Removes the business-name brokerage links of credentials about to be re-linked. $ids: ids.
UNWIND $ids AS id
MATCH (c:LicenseCredential {id: id})-[a:AFFILIATED_WITH]->(b:Brokerage)
DELETE a
