// Credential counts by state and normalized licence type. $states: jurisdiction codes.
UNWIND $states AS code
MATCH (j:Jurisdiction {code: code})<-[:IN_JURISDICTION]-(c:LicenseCredential)
RETURN j.code AS state, c.license_type AS license_type, count(c) AS count
ORDER BY state, license_type
