// One credential of $state that is not a demo record, if any: an import of a state without one is
// its first load (one state_loaded event, not one per licence).
MATCH (c:LicenseCredential {state: $state})
WHERE c.source <> 'demo'
RETURN c.id AS id
LIMIT 1
