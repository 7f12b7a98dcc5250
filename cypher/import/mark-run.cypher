// Records, inside an import unit, that the unit landed: its staged change events are committed
// once it has, and discarded if it has not (modules/changes/change-log.ts). $id: the run id; $at: ISO timestamp.
MERGE (r:ImportRun {id: $id})
SET r.landed_at = $at
