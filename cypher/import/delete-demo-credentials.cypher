// Deletes the demo credentials of a state, with their relationships; returns how many. $state: code.
MATCH (j:Jurisdiction {code: $state})<-[:IN_JURISDICTION]-(c:LicenseCredential)
WHERE c.source = 'demo'
DETACH DELETE c
RETURN count(*) AS removed
