-- Change events of refreshes. A run stages its events, then commits them once its graph unit has
-- landed; only committed events are in the feed, numbered by `seq` in commit order.
CREATE TABLE change_runs (
  id uuid PRIMARY KEY,
  source text NOT NULL,
  state text NOT NULL,
  snapshot_date date NOT NULL,
  status text NOT NULL CHECK (status IN ('staged', 'committed')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX change_runs_staged ON change_runs (source) WHERE status = 'staged';

CREATE SEQUENCE change_feed_seq;

CREATE TABLE change_events (
  run_id uuid NOT NULL REFERENCES change_runs (id) ON DELETE CASCADE,
  n integer NOT NULL,
  seq bigint UNIQUE,
  type text NOT NULL,
  state text NOT NULL,
  license_number text,
  credential_id text,
  old_values jsonb,
  new_values jsonb,
  relationship jsonb,
  snapshot_date date NOT NULL,
  detected_at timestamptz NOT NULL,
  source text NOT NULL,
  PRIMARY KEY (run_id, n)
);
CREATE INDEX change_events_state_seq ON change_events (state, seq);
CREATE INDEX change_events_detected ON change_events (detected_at);

-- How far retention has pruned the feed: a cursor before it is gone (410).
CREATE TABLE change_feed_state (
  id integer PRIMARY KEY CHECK (id = 1),
  pruned_through bigint NOT NULL
);
INSERT INTO change_feed_state (id, pruned_through) VALUES (1, 0);
