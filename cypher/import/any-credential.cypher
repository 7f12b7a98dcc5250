// One credential id, if the graph holds any: a graph without credentials takes a first import
// through the bulk path.
MATCH (c:LicenseCredential)
RETURN c.id AS id
LIMIT 1
