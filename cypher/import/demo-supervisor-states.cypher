// The states of the supervisors of a state's demo credentials ($state: code): their affiliate
// lists name those credentials, so when delete-demo-credentials removes them those states' lists
// are rebuilt too, even where no relationship into $state is left to say so.
MATCH (j:Jurisdiction {code: $state})<-[:IN_JURISDICTION]-(c:LicenseCredential)<-[:SUPERVISES]-(s:LicenseCredential)
WHERE c.source = 'demo'
RETURN DISTINCT s.state AS state
