// Drops a run's mark once its change events are committed: it is only needed until then.
MATCH (r:ImportRun {id: $id})
DELETE r
