// One supervision relationship, if the graph holds any. No parameters.
MATCH (:LicenseCredential)-[r:SUPERVISES]->(:LicenseCredential)
RETURN r.relationship_type AS relationship_type
LIMIT 1
