-- Events derived for one account (docs/changes.md, *Alerts for your watchlist*): in the feed and
-- webhooks of that account alone. `dedupe_key` names what an event is about, so a derivation run
-- again writes none twice; `alert` names the watched licence's path and the event that caused it.
ALTER TABLE change_events
  ADD COLUMN account_id uuid REFERENCES accounts (id) ON DELETE CASCADE,
  ADD COLUMN dedupe_key text,
  ADD COLUMN alert jsonb;
CREATE UNIQUE INDEX change_events_dedupe ON change_events (account_id, dedupe_key) WHERE dedupe_key IS NOT NULL;
CREATE INDEX change_events_account_seq ON change_events (account_id, seq) WHERE account_id IS NOT NULL;
-- A committed run's alerts are derived once; runs committed before alerts existed count as derived.
ALTER TABLE change_runs ADD COLUMN derived boolean NOT NULL DEFAULT false;
UPDATE change_runs SET derived = true WHERE status = 'committed';
CREATE INDEX change_runs_underived ON change_runs (created_at) WHERE status = 'committed' AND NOT derived;
-- An event's deliveries by the event: deleting events (retention, a derivation rewritten) looks them up.
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_seq);
