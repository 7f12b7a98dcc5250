// The JSON read models of credentials by id ($ids), for a refresh comparing what it writes;
// unknown ids yield no row.
UNWIND $ids AS id
MATCH (c:LicenseCredential {id: id})
RETURN c.doc AS doc
