// The affiliate list read model (`aff`: see engine/ladybug/supervisor-read-model.cypher) of a
// supervising credential ($id): every relationship it supervises, in force or not.
MATCH (s:LicenseCredential {id: $id})
RETURN s.aff AS aff
