-- Accounts, API keys and monthly usage.
CREATE TABLE accounts (
  id uuid PRIMARY KEY,
  email text NOT NULL UNIQUE,
  plan text NOT NULL CHECK (plan IN ('free', 'starter', 'growth', 'enterprise')),
  trial_plan text CHECK (trial_plan IN ('starter', 'growth', 'enterprise')),
  trial_ends_at timestamptz,
  is_demo boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((trial_plan IS NULL) = (trial_ends_at IS NULL))
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  label text,
  prefix text NOT NULL,
  last_four text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_keys_account ON api_keys (account_id);

-- The month's total per account: the quota is checked and taken atomically on this row.
CREATE TABLE usage_totals (
  account_id uuid NOT NULL REFERENCES accounts (id),
  period text NOT NULL,
  used integer NOT NULL,
  PRIMARY KEY (account_id, period)
);

-- The month's metered calls per account and operation.
CREATE TABLE usage_by_endpoint (
  account_id uuid NOT NULL REFERENCES accounts (id),
  period text NOT NULL,
  endpoint text NOT NULL,
  calls integer NOT NULL,
  PRIMARY KEY (account_id, period, endpoint)
);
