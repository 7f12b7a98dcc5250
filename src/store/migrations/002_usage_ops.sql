-- Every write to usage, by the token its instance gave it, in the same transaction: when a
-- connection drops while a commit is in flight, the instance reads back whether it landed.
CREATE TABLE usage_ops (
  token uuid PRIMARY KEY,
  units integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX usage_ops_created ON usage_ops (created_at);
