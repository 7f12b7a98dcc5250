// Drops the affiliate lists of the credentials in $states, before supervisor-read-model sets them
// again for those that still supervise.
MATCH (s:LicenseCredential)
WHERE s.state IN $states AND s.aff IS NOT NULL
SET s.aff = null
