// The licence numbers of credentials by id, for the run's change events. $ids: credential ids.
UNWIND $ids AS id
MATCH (c:LicenseCredential {id: id})
RETURN c.id AS id, c.license_number AS license_number
