// The snapshot date of a source's last refresh, if any. $source: source id.
MATCH (s:Source {id: $source})
RETURN s.last_snapshot_date AS last_snapshot_date
