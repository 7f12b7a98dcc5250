// Which of $ids are credentials on file, and whether each has left its source.
UNWIND $ids AS id
MATCH (c:LicenseCredential {id: id})
RETURN c.id AS id, c.left_source_on AS left_source_on
