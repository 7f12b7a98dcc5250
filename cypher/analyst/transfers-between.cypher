// Supervision transfers ended from $from to $to in a state, by the relationships' dates: an
// affiliate's relationship of one type ended under one supervisor and one of the same type began
// under another on that day or at most 90 days later, with no other of that type open between
// (the change feed's supervision_transferred, docs/changes.md, pairs by snapshot and so also tells
// an overlapping start a snapshot reported with the end). Only the published generation's versions (vf, vt).
// :params {state: 'TX', from: '2026-01-01', to: '2026-06-30'}
OPTIONAL MATCH (snapshot:Snapshot {id: 'graph'})
WITH coalesce(snapshot.generation, 0) AS g
MATCH (a:LicenseCredential|Superseded {state: $state})<-[e:SUPERVISES]-(old)
WHERE coalesce(a.vf, CASE WHEN a.id IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(a.vt, CASE WHEN a.id IS NULL THEN g ELSE g + 1 END) > g AND coalesce(e.vf, CASE WHEN e.relationship_type IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(e.vt, CASE WHEN e.relationship_type IS NULL THEN g ELSE g + 1 END) > g
  AND date($from) <= e.effective_to <= date($to)
MATCH (a)<-[n:SUPERVISES]-(new)
WHERE new <> old AND coalesce(n.vf, CASE WHEN n.relationship_type IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(n.vt, CASE WHEN n.relationship_type IS NULL THEN g ELSE g + 1 END) > g
  AND n.relationship_type = e.relationship_type AND e.effective_to <= n.effective_from <= e.effective_to + duration({days: 90})
  AND NOT EXISTS {
    MATCH (a)<-[m:SUPERVISES]-() WHERE m <> e AND m <> n AND coalesce(m.vf, CASE WHEN m.relationship_type IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(m.vt, CASE WHEN m.relationship_type IS NULL THEN g ELSE g + 1 END) > g
      AND m.relationship_type = e.relationship_type AND m.effective_from < n.effective_from AND (m.effective_to IS NULL OR m.effective_to > e.effective_to)
  }
RETURN a.license_number AS license_number, a.full_name AS full_name, e.relationship_type AS relationship_type,
       old.license_number AS from_supervisor, toString(e.effective_to) AS ended,
       new.license_number AS to_supervisor, toString(n.effective_from) AS started
ORDER BY ended, license_number
