-- A secret just made by a dashboard form (a raw API key, a webhook signing secret), kept for the
-- one page the form redirects to (redirect after POST). It is sealed with a key derived from the
-- session token, which the store never holds. It is taken (deleted) at its first read, and goes
-- with its session.
CREATE TABLE dashboard_flash (
  session_hash text PRIMARY KEY REFERENCES sessions (id_hash) ON DELETE CASCADE,
  page text NOT NULL,
  payload text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX dashboard_flash_expires ON dashboard_flash (expires_at);
