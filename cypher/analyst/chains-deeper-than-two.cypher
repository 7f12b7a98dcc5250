// Supervision chains of three or more links in force on $as_of (ISO date): each licence with
// the supervisor three levels up.
MATCH (a:LicenseCredential)<-[r1:SUPERVISES]-(s1:LicenseCredential)<-[r2:SUPERVISES]-(s2:LicenseCredential)<-[r3:SUPERVISES]-(s3:LicenseCredential)
WHERE r1.effective_from <= date($as_of) AND (r1.effective_to IS NULL OR r1.effective_to > date($as_of)) AND r2.effective_from <= date($as_of) AND (r2.effective_to IS NULL OR r2.effective_to > date($as_of)) AND r3.effective_from <= date($as_of) AND (r3.effective_to IS NULL OR r3.effective_to > date($as_of))
  AND a.id <> s2.id AND a.id <> s3.id AND s1.id <> s3.id
RETURN a.state AS state, a.license_number AS license_number, s1.license_number AS level_1,
       s2.license_number AS level_2, s3.license_number AS level_3
ORDER BY state, license_number
LIMIT 100
