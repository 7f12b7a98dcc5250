-- The evidence log: one row per licence an account's verify or batch call answered, written
-- before the answer is sent. `id` is a UUIDv7 (time-ordered). `license_number` is as asked;
-- `license_key` its canonical form (the filter). `body_sha256` hashes the JSON body served (a
-- 304's is the cached body's). `keep_until`: the plan in force when it was made keeps it so long.
CREATE TABLE verifications (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  key_id uuid NOT NULL,
  created_at timestamptz NOT NULL,
  keep_until timestamptz NOT NULL,
  operation text NOT NULL CHECK (operation IN ('verify', 'batch')),
  item_index integer,
  state text NOT NULL,
  license_number text NOT NULL,
  license_key text NOT NULL,
  name_sent jsonb,
  verified boolean NOT NULL,
  verdict text NOT NULL,
  reasons text[] NOT NULL,
  name_match jsonb,
  licence_status text,
  expiration_date text,
  source_id text,
  snapshot_date text,
  last_verified text,
  http_status smallint NOT NULL,
  body_sha256 text NOT NULL
);
-- Newest first, for the whole log and for each filter alone: a page reads a page of index.
CREATE INDEX verifications_account_time ON verifications (account_id, created_at DESC, id DESC);
CREATE INDEX verifications_account_licence ON verifications (account_id, license_key, created_at DESC, id DESC);
CREATE INDEX verifications_account_state ON verifications (account_id, state, created_at DESC, id DESC);
CREATE INDEX verifications_account_verdict ON verifications (account_id, verdict, created_at DESC, id DESC);
CREATE INDEX verifications_keep_until ON verifications (keep_until);
