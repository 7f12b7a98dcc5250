// Licences of a state whose expiration date falls from $as_of (ISO date) to $days days after it,
// soonest first: what the expiry pass tells watchers of as license_expiring (it counts days in the
// state's local date, docs/changes.md). Only the published generation's versions (vf, vt: docs/graph.md).
// :params {state: 'TX', as_of: '2026-11-22', days: 90}
OPTIONAL MATCH (snapshot:Snapshot {id: 'graph'})
WITH coalesce(snapshot.generation, 0) AS g
// The state's credentials from the (state, license_number) index, not every label's nodes; the
// versions a refresh replaced are few, by their label.
CALL () {
  MATCH (c:LicenseCredential) WHERE c.state = $state AND c.license_number IS NOT NULL RETURN c
  UNION
  MATCH (c:Superseded {state: $state}) RETURN c
}
WITH g, c
WHERE coalesce(c.vf, CASE WHEN c.id IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(c.vt, CASE WHEN c.id IS NULL THEN g ELSE g + 1 END) > g
  AND date($as_of) <= c.expiration_date <= date($as_of) + duration({days: $days})
RETURN c.license_number AS license_number, c.full_name AS full_name, c.status AS status,
       toString(c.expiration_date) AS expiration_date, duration.inDays(date($as_of), c.expiration_date).days AS days_left
ORDER BY expiration_date, license_number
