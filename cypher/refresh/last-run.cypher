// The summary of a source's last refresh (a JSON text with its run_id), if any. $source: source id.
MATCH (s:Source {id: $source})
RETURN s.last_run AS run
