// The affiliate list (see src/graph/ladybug/read-models.ts) of a supervising credential
// ($id): every relationship it supervises, in force or not; no row when it supervises none.
MATCH (x:AffiliateList {id: $id})
RETURN x.entries AS entries
