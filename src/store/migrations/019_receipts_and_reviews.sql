-- Keys that sign receipts (docs/decisions/0043): public halves only; the private ones stay in each
-- process's key set (SIGNING_KEYS, or the file SIGNING_KEYS_FILE names). Every key that ever signed
-- stays here, so /.well-known/jwks.json lists it; at most one is active.
CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  public_jwk jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('active', 'retired', 'compromised')),
  created_at timestamptz NOT NULL,
  retired_at timestamptz,
  compromised_at timestamptz
);
CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys (status) WHERE status = 'active';

-- A record's receipt (a compact JWS), signed the first time it is asked for and kept as long as
-- its record: `position` is the record's place in its call (verifications.repo.ts, itemId).
CREATE TABLE verification_receipts (
  call_id uuid NOT NULL REFERENCES verification_calls (id) ON DELETE CASCADE,
  position smallint NOT NULL,
  kid text NOT NULL REFERENCES signing_keys (kid),
  jws text NOT NULL,
  signed_at timestamptz NOT NULL,
  PRIMARY KEY (call_id, position)
);

-- A person's decision about a record; never changes the record, and a later one is kept beside
-- an earlier one. Each is signed when made. Kept as long as its record.
CREATE TABLE verification_reviews (
  id uuid PRIMARY KEY,
  call_id uuid NOT NULL REFERENCES verification_calls (id) ON DELETE CASCADE,
  position smallint NOT NULL,
  account_id uuid NOT NULL REFERENCES accounts (id),
  decision text NOT NULL CHECK (decision IN ('accepted', 'rejected', 'escalated')),
  reason text NOT NULL,
  reviewer jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  kid text NOT NULL REFERENCES signing_keys (kid),
  jws text NOT NULL
);
CREATE INDEX verification_reviews_record ON verification_reviews (call_id, position, created_at);

-- A finished job's receipt: signed over the job and its results' lines (jobs.service.ts,
-- summaryLine) by the worker that finishes it, or at the first ask; kept as long as the job.
ALTER TABLE verification_jobs
  ADD COLUMN receipt_kid text REFERENCES signing_keys (kid),
  ADD COLUMN receipt_jws text,
  ADD COLUMN receipt_signed_at timestamptz;
