-- States an account follows whole: every change event of the state goes to its webhooks.
CREATE TABLE state_subscriptions (
  account_id uuid NOT NULL REFERENCES accounts (id),
  state text NOT NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, state)
);
CREATE INDEX state_subscriptions_state ON state_subscriptions (state);

-- Where an account's change events are pushed (Standard Webhooks). `secret` signs; the previous
-- one signs beside it until `previous_secret_expires_at`, so receivers can roll over.
CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  url text NOT NULL,
  description text,
  event_types text[],
  secret text NOT NULL,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  status text NOT NULL CHECK (status IN ('enabled', 'disabled')),
  disabled_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id);

-- One event for one endpoint, stored before it is sent (in the transaction that publishes the
-- event), so a restart loses none. A pending row is due at `next_attempt_at`; a claimed one has it
-- pushed out by a lease, so a crash mid-send sends it again (at least once). `id` is the
-- `webhook-id` header: the same on every attempt, the receiver's idempotency key.
CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_seq bigint NOT NULL REFERENCES change_events (seq) ON DELETE CASCADE,
  event_type text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  retries_used integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  last_status_code integer,
  last_error text,
  last_response_excerpt text,
  created_at timestamptz NOT NULL,
  UNIQUE (endpoint_id, event_seq)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (endpoint_id, next_attempt_at, event_seq) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_done ON webhook_deliveries (created_at) WHERE status <> 'pending';
