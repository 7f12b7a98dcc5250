-- The evidence log, one row per call instead of one per licence answered: a batch's hundred items
-- share their call's row, where a row each cost a hundred heap rows and five hundred index entries
-- (docs/decisions/0023). Records are still one per licence answered, read out of `items`.
-- `id`: a UUIDv7 whose low 7 bits are zero; item n's record id is the call's with n there (calls
-- moved from 011 keep their id, their one item's). `tags`: 'L:<licence key>', 'S:<state>' and
-- 'V:<verdict>' of its items, what the filters look up. `items`, in request order, with short keys:
-- i index, s state, n licence number as asked, k its canonical key, a name sent, v verified,
-- d verdict, r reasons, m name match, st status, ex expiry, src source, sd snapshot, lv last_verified.
CREATE TABLE verification_calls (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  key_id uuid NOT NULL,
  created_at timestamptz NOT NULL,
  keep_until timestamptz NOT NULL,
  operation text NOT NULL CHECK (operation IN ('verify', 'batch')),
  http_status smallint NOT NULL,
  body_sha256 text NOT NULL,
  tags text[] NOT NULL,
  items jsonb NOT NULL CHECK (jsonb_typeof(items) = 'array' AND jsonb_array_length(items) BETWEEN 1 AND 128)
);
-- Newest first, for the whole log and for common filters (walked, items checked); the tags for
-- rare ones (a licence, a state seldom checked), which the planner picks by the statistics. Those
-- are refreshed hourly (PGlite runs no autovacuum) from a small sample: the planner needs the
-- accounts' sizes and the common tags, and ANALYZE blocks PGlite while it reads.
CREATE INDEX verification_calls_account_time ON verification_calls (account_id, created_at DESC, id DESC);
CREATE INDEX verification_calls_tags ON verification_calls USING gin (tags);
CREATE INDEX verification_calls_keep_until ON verification_calls (keep_until);
ALTER TABLE verification_calls
  ALTER COLUMN account_id SET STATISTICS 10, ALTER COLUMN created_at SET STATISTICS 10, ALTER COLUMN tags SET STATISTICS 10,
  ALTER COLUMN id SET STATISTICS 0, ALTER COLUMN key_id SET STATISTICS 0, ALTER COLUMN keep_until SET STATISTICS 0,
  ALTER COLUMN operation SET STATISTICS 0, ALTER COLUMN http_status SET STATISTICS 0, ALTER COLUMN body_sha256 SET STATISTICS 0,
  ALTER COLUMN items SET STATISTICS 0;

INSERT INTO verification_calls (id, account_id, key_id, created_at, keep_until, operation, http_status, body_sha256, tags, items)
SELECT id, account_id, key_id, created_at, keep_until, operation, http_status, body_sha256,
  ARRAY['L:' || license_key, 'S:' || state, 'V:' || verdict],
  jsonb_build_array(jsonb_strip_nulls(jsonb_build_object(
    'i', item_index, 's', state, 'n', license_number, 'k', license_key, 'a', name_sent, 'v', verified, 'd', verdict,
    'r', to_jsonb(reasons), 'm', name_match, 'st', licence_status, 'ex', expiration_date, 'src', source_id,
    'sd', snapshot_date, 'lv', last_verified)))
FROM verifications;
DROP TABLE verifications;
