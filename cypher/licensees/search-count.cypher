// Exact number of credentials in the given states matching the filters of
// search.filters.cypher. $states: jurisdiction codes.
UNWIND $states AS code
MATCH (j:Jurisdiction {code: code})<-[:IN_JURISDICTION]-(c:LicenseCredential)
WHERE c.state = code
// @filters
RETURN count(c) AS total
