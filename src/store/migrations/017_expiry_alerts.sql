-- Expiries ahead (docs/changes.md): the days before a watched licence's expiration date an account
-- is told (no row: the default days), and the lease that lets one process at a time run the pass
-- (a holder not heard from for `lease` is replaced).
CREATE TABLE watch_settings (
  account_id uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  expiry_days integer[] NOT NULL
);
CREATE TABLE expiry_pass (
  id integer PRIMARY KEY CHECK (id = 1),
  holder text,
  heartbeat_at timestamptz,
  finished_at timestamptz
);
INSERT INTO expiry_pass (id) VALUES (1);
