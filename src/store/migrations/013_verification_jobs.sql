-- Roster verification jobs (docs/jobs.md). A job's rows are cut into chunks of 100 at upload, in
-- roster order: a chunk is what a worker leases, verifies as one batch, meters as one unit and
-- commits (results, evidence, counts) in one transaction, so no row is done twice.
CREATE TABLE verification_jobs (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  -- Null: uploaded in the dashboard by a signed-in user.
  key_id uuid,
  label text,
  format text NOT NULL CHECK (format IN ('csv', 'json')),
  -- 'uploading' while its chunks are written (a statement at a time, not one long transaction that
  -- would hold PGlite's one connection): not claimed, not shown.
  status text NOT NULL CHECK (status IN ('uploading', 'queued', 'running', 'completed', 'failed', 'cancelled')),
  watch boolean NOT NULL,
  rows_total integer NOT NULL,
  rows_done integer NOT NULL DEFAULT 0,
  clear integer NOT NULL DEFAULT 0,
  consider integer NOT NULL DEFAULT 0,
  not_found integer NOT NULL DEFAULT 0,
  units integer NOT NULL DEFAULT 0,
  -- {added, already_watched, over_limit, limit} once the watch pass ran.
  watchlist jsonb,
  error_code text,
  error_message text,
  idempotency_key text,
  request_sha256 text NOT NULL,
  -- The scheduler serves the account whose jobs it served least recently first.
  served_at timestamptz,
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz,
  keep_until timestamptz NOT NULL
);
CREATE INDEX verification_jobs_account ON verification_jobs (account_id, created_at DESC, id DESC);
CREATE UNIQUE INDEX verification_jobs_idempotency ON verification_jobs (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX verification_jobs_active ON verification_jobs (served_at NULLS FIRST, created_at) WHERE status IN ('queued', 'running');
CREATE INDEX verification_jobs_keep_until ON verification_jobs (keep_until);

-- `items`: the chunk's rows as sent (state, license_number, name fields). A worker holds a chunk
-- until `lease_until`; past it, another (or this one after a restart) takes it again.
CREATE TABLE verification_job_chunks (
  job_id uuid NOT NULL REFERENCES verification_jobs (id) ON DELETE CASCADE,
  chunk integer NOT NULL,
  items jsonb NOT NULL,
  lease_owner text,
  lease_until timestamptz,
  done_at timestamptz,
  -- The worker that committed it (host:pid:instance).
  done_by text,
  PRIMARY KEY (job_id, chunk)
);
CREATE INDEX verification_job_chunks_todo ON verification_job_chunks (job_id, chunk) WHERE done_at IS NULL;

-- One row per roster row done, in roster order (`row` from 1). `result`: the batch item's object as
-- answered; `over_limit`: found, but the watchlist was full when the job put its rows on it.
CREATE TABLE verification_job_results (
  job_id uuid NOT NULL REFERENCES verification_jobs (id) ON DELETE CASCADE,
  row integer NOT NULL,
  verdict text NOT NULL,
  -- Of a found row: its licence, for the watchlist.
  credential_id text,
  state text,
  license_key text,
  verification_id uuid NOT NULL,
  over_limit boolean NOT NULL DEFAULT false,
  result jsonb NOT NULL,
  PRIMARY KEY (job_id, row)
);
CREATE INDEX verification_job_results_verdict ON verification_job_results (job_id, verdict, row);

-- Evidence of a job's rows: operation 'job', and no key for a dashboard upload.
ALTER TABLE verification_calls DROP CONSTRAINT verification_calls_operation_check;
ALTER TABLE verification_calls ADD CONSTRAINT verification_calls_operation_check CHECK (operation IN ('verify', 'batch', 'job'));
ALTER TABLE verification_calls ALTER COLUMN key_id DROP NOT NULL;

-- Webhook deliveries of events that are not change events (a job's) carry their payload.
ALTER TABLE webhook_deliveries ALTER COLUMN event_seq DROP NOT NULL;
ALTER TABLE webhook_deliveries ADD COLUMN payload jsonb;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_or_payload CHECK ((event_seq IS NULL) <> (payload IS NULL));
