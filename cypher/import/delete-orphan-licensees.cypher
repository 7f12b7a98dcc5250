// Deletes licensees that hold no credential any more.
MATCH (l:Licensee)
WHERE NOT EXISTS { MATCH (l)-[:HOLDS]->(:LicenseCredential) }
DELETE l
