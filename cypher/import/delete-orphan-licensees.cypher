// Deletes licensees that hold no credential any more.
MATCH (l:Licensee)
OPTIONAL MATCH (l)-[h:HOLDS]->(c:LicenseCredential)
WITH l, count(h) AS held
WHERE held = 0
DELETE l
