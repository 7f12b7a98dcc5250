// Licences of a state left without a brokerage on $as_of (ISO date): a sponsoring, employing or
// supervising broker or main office relationship of theirs ended in the 90 days up to $as_of, and
// none is in force that day (the change feed's supervision_gap_opened, docs/changes.md). It means
// something only where the source publishes supervision in full (TX, FL). Only the published
// generation's versions (vf, vt: docs/graph.md).
// :params {state: 'TX', as_of: '2026-11-22'}
OPTIONAL MATCH (snapshot:Snapshot {id: 'graph'})
WITH coalesce(snapshot.generation, 0) AS g
MATCH (a:LicenseCredential|Superseded {state: $state})<-[e:SUPERVISES]-(s)
WHERE coalesce(a.vf, CASE WHEN a.id IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(a.vt, CASE WHEN a.id IS NULL THEN g ELSE g + 1 END) > g AND coalesce(e.vf, CASE WHEN e.relationship_type IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(e.vt, CASE WHEN e.relationship_type IS NULL THEN g ELSE g + 1 END) > g
  AND e.relationship_type IN ['sponsoring_broker', 'employing_broker', 'supervising_broker', 'main_office']
  AND date($as_of) - duration({days: 90}) < e.effective_to <= date($as_of)
  AND NOT EXISTS {
    MATCH (a)<-[m:SUPERVISES]-() WHERE coalesce(m.vf, CASE WHEN m.relationship_type IS NULL THEN g + 1 ELSE 0 END) <= g AND coalesce(m.vt, CASE WHEN m.relationship_type IS NULL THEN g ELSE g + 1 END) > g
      AND m.relationship_type IN ['sponsoring_broker', 'employing_broker', 'supervising_broker', 'main_office']
      AND m.effective_from <= date($as_of) AND (m.effective_to IS NULL OR m.effective_to > date($as_of))
  }
WITH a, e, s ORDER BY e.effective_to DESC
WITH a, collect({supervisor: s.license_number, type: e.relationship_type, ended: e.effective_to})[0] AS last
RETURN a.license_number AS license_number, a.full_name AS full_name, last.supervisor AS last_supervisor,
       last.type AS relationship_type, toString(last.ended) AS ended
ORDER BY ended, license_number
