-- Metered calls per account and day (UTC), for the dashboard's chart and the usage reading.
CREATE TABLE usage_by_day (
  account_id uuid NOT NULL REFERENCES accounts (id),
  day date NOT NULL,
  calls integer NOT NULL,
  PRIMARY KEY (account_id, day)
);
