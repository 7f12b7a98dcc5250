// What a first load brought to each of $states that has credentials: how many, a source of theirs,
// and the relationships supervising them. (Counted in two steps: LadybugDB drops the credentials'
// source and relationships when one aggregation spans the OPTIONAL MATCH.)
UNWIND $states AS s
MATCH (:Jurisdiction {code: s})<-[:IN_JURISDICTION]-(c:LicenseCredential)
WITH s, count(c) AS credentials, min(c.source) AS source
OPTIONAL MATCH (:Jurisdiction {code: s})<-[:IN_JURISDICTION]-(:LicenseCredential)<-[r:SUPERVISES]-(:LicenseCredential)
RETURN s AS state, credentials, source, count(r) AS relationships
