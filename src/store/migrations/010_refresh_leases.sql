-- One row per state whose refresh is running (or whose process died while it ran: a row not
-- renewed for 30 s is free to take). The progress is the run's last report.
CREATE TABLE refresh_leases (
  state text PRIMARY KEY,
  source text NOT NULL,
  run_id text NOT NULL,
  holder text NOT NULL,
  started_at timestamptz NOT NULL,
  heartbeat_at timestamptz NOT NULL,
  progress jsonb NOT NULL
);
