// Records a refresh run on its source. $source: source id; $snapshot: ISO date; $run: JSON
// summary; $now: ISO timestamp; $rows: rows read.
MATCH (s:Source {id: $source})
SET s.last_snapshot_date = date($snapshot), s.last_run = $run, s.last_import_at = $now, s.last_import_rows = $rows
