import { randomUUID } from 'node:crypto';
import type { ChangeEvent } from '../../domain/changes.js';
import type { SqlStore, SqlTx } from '../../store/sql-store.js';

/** Serializes commits, so that feed numbers become visible in the order they are given. */
const FEED_LOCK = 7_310_523;

export interface StoredChange extends ChangeEvent {
  seq: number;
}

/** A watch: an account and the licence it watches (pages of them are ordered by licence, then account). */
export type WatchedAt = { account_id: string; credential_id: string };
/** Before every watch: a page after it is the first (a credential id is never empty). */
const BEFORE_ALL: WatchedAt = { credential_id: '', account_id: '00000000-0000-0000-0000-000000000000' };

const COLUMNS = `seq, type, state, license_number, credential_id, old_values, new_values, relationship, transfer, bulk_move, account_id, alert,
  to_char(snapshot_date, 'YYYY-MM-DD') AS snapshot_date, detected_at, source`;

function change(r: Record<string, unknown>): StoredChange {
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v ?? null);
  return {
    seq: Number(r.seq),
    type: r.type as StoredChange['type'],
    state: r.state as string,
    license_number: (r.license_number as string | null) ?? null,
    license_credential_id: (r.credential_id as string | null) ?? null,
    old: json(r.old_values),
    new: json(r.new_values),
    relationship: json(r.relationship),
    transfer: json(r.transfer),
    bulk_move: json(r.bulk_move),
    account_id: (r.account_id as string | null) ?? null,
    alert: json(r.alert),
    snapshot_date: r.snapshot_date as string,
    detected_at: new Date(r.detected_at as string).toISOString(),
    source: r.source as string,
  };
}

/** Alerts a derivation publishes per transaction: each batch's deliveries are due as it commits. */
const ALERT_BATCH = 5_000;

/**
 * @param onPublish runs in the transaction that publishes a run's events (webhook deliveries are
 * stored there, so an event is never published without them); `ownOnly`: the run holds accounts'
 * own events (alerts) alone.
 */
export function createChangesRepo(store: SqlStore, onPublish?: (tx: SqlTx, runId: string, ownOnly: boolean) => Promise<void>) {
  const numberRun = (tx: SqlTx, runId: string) =>
    // Materialized: numbered once, in event order (as a join's inner side the numbering could be
    // rescanned, leaving gaps and numbering the run's events out of their order).
    tx.query(
      `WITH o AS MATERIALIZED (SELECT n, nextval('change_feed_seq') AS seq FROM (SELECT n FROM change_events WHERE run_id = $1 ORDER BY n) AS ordered)
       UPDATE change_events e SET seq = o.seq FROM o WHERE e.run_id = $1 AND e.n = o.n`,
      [runId],
    );
  /**
   * Inserts alerts as a committed run of their own with their deliveries, numbered as they are
   * inserted (the feed lock is held, so no other commit numbers meanwhile; an update numbering them
   * after would write every row twice). An alert whose key its account holds is left out.
   */
  const insertAlerts = async (tx: SqlTx, run: { source: string; state: string; snapshot_date: string }, events: ChangeEvent[]) => {
    if (!events.length) return 0;
    const id = randomUUID();
    await tx.query("INSERT INTO change_runs (id, source, state, snapshot_date, status, derived) VALUES ($1, $2, $3, $4::date, 'committed', true)", [id, run.source, run.state, run.snapshot_date]);
    let written = 0;
    for (let i = 0; i < events.length; i += 1000) {
      const rows = events.slice(i, i + 1000).map((e, j) => ({ n: i + j, ...e, dedupe_key: e.alert?.key ?? null }));
      // Those held already are left out before they are numbered, so that the feed's numbers have no gaps.
      const inserted = await tx.query(
        `INSERT INTO change_events (run_id, n, seq, type, state, license_number, credential_id, old_values, new_values, relationship, account_id, dedupe_key, alert, snapshot_date, detected_at, source)
         SELECT $1, r.n, nextval('change_feed_seq'), r.type, r.state, r.license_number, r.license_credential_id, r.old, r.new, r.relationship, r.account_id, r.dedupe_key, r.alert, r.snapshot_date::date, r.detected_at::timestamptz, r.source
         FROM (SELECT * FROM jsonb_to_recordset($2::jsonb) AS x(n integer, type text, state text, license_number text, license_credential_id text, old jsonb, new jsonb, relationship jsonb, account_id uuid, dedupe_key text, alert jsonb, snapshot_date text, detected_at text, source text)
               WHERE x.dedupe_key IS NULL OR NOT EXISTS (SELECT 1 FROM change_events h WHERE h.account_id = x.account_id AND h.dedupe_key = x.dedupe_key)
               ORDER BY x.n) AS r
         ON CONFLICT (account_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING RETURNING n`,
        [id, JSON.stringify(rows)],
      );
      written += inserted.length;
    }
    await onPublish?.(tx, id, true);
    return written;
  };
  return {
    async stage(run: { id: string; source: string; state: string; snapshot_date: string }, events: ChangeEvent[], from = 0) {
      await store.transaction(async (tx) => {
        if (from === 0) await tx.query("INSERT INTO change_runs (id, source, state, snapshot_date, status) VALUES ($1, $2, $3, $4::date, 'staged')", [run.id, run.source, run.state, run.snapshot_date]);
        for (let i = 0; i < events.length; i += 1000) {
          const rows = events.slice(i, i + 1000).map((e, j) => ({ n: from + i + j, ...e }));
          await tx.query(
            `INSERT INTO change_events (run_id, n, type, state, license_number, credential_id, old_values, new_values, relationship, transfer, bulk_move, snapshot_date, detected_at, source)
             SELECT $1, r.n, r.type, r.state, r.license_number, r.license_credential_id, r.old, r.new, r.relationship, r.transfer, r.bulk_move, r.snapshot_date::date, r.detected_at::timestamptz, r.source
             FROM jsonb_to_recordset($2::jsonb) AS r(n integer, type text, state text, license_number text, license_credential_id text, old jsonb, new jsonb, relationship jsonb, transfer jsonb, bulk_move jsonb, snapshot_date text, detected_at text, source text)`,
            [run.id, JSON.stringify(rows)],
          );
        }
      });
    },
    /** Numbers the run's events in feed order and publishes them; a run committed already is left as it is. */
    async commit(runId: string) {
      await store.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1)', [FEED_LOCK]);
        const [run] = await tx.query("UPDATE change_runs SET status = 'committed' WHERE id = $1 AND status = 'staged' RETURNING id", [runId]);
        if (!run) return;
        await numberRun(tx, runId);
        // Events that name others of the run (a transfer, a bulk move) by their place get their numbers.
        await tx.query(
          `UPDATE change_events e SET transfer = e.transfer - 'ended_n' - 'started_n' || jsonb_build_object(
             'ended_seq', (SELECT x.seq FROM change_events x WHERE x.run_id = $1 AND x.n = (e.transfer->>'ended_n')::integer),
             'started_seq', (SELECT x.seq FROM change_events x WHERE x.run_id = $1 AND x.n = (e.transfer->>'started_n')::integer))
           WHERE e.run_id = $1 AND e.transfer IS NOT NULL`,
          [runId],
        );
        await tx.query(
          `UPDATE change_events e SET bulk_move = e.bulk_move - 'event_n' || jsonb_build_object(
             'event_seq', (SELECT x.seq FROM change_events x WHERE x.run_id = $1 AND x.n = (e.bulk_move->>'event_n')::integer))
           WHERE e.run_id = $1 AND e.bulk_move ? 'event_n'`,
          [runId],
        );
        await onPublish?.(tx, runId, false);
      });
    },
    async discard(runId: string) {
      await store.query("DELETE FROM change_runs WHERE id = $1 AND status = 'staged'", [runId]);
    },
    /** Sources with runs a crash left staged, or committed with their alerts underived. */
    async stagedSources(): Promise<string[]> {
      return (await store.query<{ source: string }>("SELECT DISTINCT source FROM change_runs WHERE status = 'staged' OR NOT derived ORDER BY source")).map((r) => r.source);
    },
    async stagedRuns(source: string): Promise<string[]> {
      return (await store.query<{ id: string }>("SELECT id FROM change_runs WHERE source = $1 AND status = 'staged' ORDER BY created_at", [source])).map((r) => r.id);
    },
    /** A run whose public events are committed and whose alerts are not derived yet (with what deriving needs of it). */
    async underived(runId: string): Promise<{ id: string; source: string; state: string; snapshot_date: string } | undefined> {
      const [run] = await store.query<{ id: string; source: string; state: string; snapshot_date: string }>(
        "SELECT id, source, state, to_char(snapshot_date, 'YYYY-MM-DD') AS snapshot_date FROM change_runs WHERE id = $1 AND status = 'committed' AND NOT derived",
        [runId],
      );
      return run;
    },
    /** Committed runs of `source` whose alerts a crash left underived, oldest first. */
    async underivedRuns(source: string): Promise<string[]> {
      return (await store.query<{ id: string }>("SELECT id FROM change_runs WHERE source = $1 AND status = 'committed' AND NOT derived ORDER BY created_at", [source])).map((r) => r.id);
    },
    /** A committed run's public events of `types` on the licences `ids`, in feed order. */
    async runEvents(runId: string, types: readonly string[], ids: string[]): Promise<StoredChange[]> {
      return (
        await store.query(`SELECT ${COLUMNS} FROM change_events WHERE run_id = $1 AND account_id IS NULL AND type = ANY($2::text[]) AND credential_id = ANY($3::text[]) ORDER BY seq`, [runId, types, ids])
      ).map(change);
    },
    /** Who watches which licence of `state`: `limit` rows after `after` (null: from the first), by licence and account. */
    async watchedIn(state: string, after: WatchedAt | null, limit: number): Promise<WatchedAt[]> {
      const from = after ?? BEFORE_ALL;
      return store.query(
        `SELECT account_id, credential_id FROM watched_licences WHERE state = $1 AND (credential_id, account_id) > ($2, $3::uuid)
         ORDER BY credential_id, account_id LIMIT $4`,
        [state, from.credential_id, from.account_id, limit],
      );
    },
    /**
     * Publishes alerts derived from a committed run, ALERT_BATCH a transaction, and with `done` marks
     * the run derived with the last: a run derived already writes nothing (null: stop deriving), and a
     * derivation cut off between batches leaves the run underived, its next one skipping what was
     * written by the alerts' keys.
     */
    async publishDerived(cause: { id: string; source: string; state: string; snapshot_date: string }, events: ChangeEvent[], done = true): Promise<number | null> {
      let written = 0;
      for (let i = 0; ; i += ALERT_BATCH) {
        const last = i + ALERT_BATCH >= events.length;
        const batch = await store.transaction(async (tx) => {
          await tx.query('SELECT pg_advisory_xact_lock($1)', [FEED_LOCK]);
          const [run] = await tx.query(
            last && done
              ? "UPDATE change_runs SET derived = true WHERE id = $1 AND status = 'committed' AND NOT derived RETURNING id"
              : "SELECT id FROM change_runs WHERE id = $1 AND status = 'committed' AND NOT derived",
            [cause.id],
          );
          return run ? insertAlerts(tx, cause, events.slice(i, i + ALERT_BATCH)) : undefined;
        });
        if (batch === undefined) return written || null;
        written += batch;
        if (last) return written;
      }
    },
    /** Publishes alerts that no run caused (the expiry pass's): an alert whose key its account holds already is left out. */
    async publishAlerts(run: { source: string; state: string; snapshot_date: string }, events: ChangeEvent[]): Promise<number> {
      if (!events.length) return 0;
      return store.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1)', [FEED_LOCK]);
        return insertAlerts(tx, run, events);
      });
    },
    /** Watches of `state` after `after` (null: from the first), by licence and account, with their watchers' expiry days (null: the default). */
    async watchedWithDays(state: string, after: WatchedAt | null, limit: number): Promise<(WatchedAt & { expiry_days: number[] | null })[]> {
      const from = after ?? BEFORE_ALL;
      return store.query(
        `SELECT l.account_id, l.credential_id, s.expiry_days FROM watched_licences l LEFT JOIN watch_settings s ON s.account_id = l.account_id
         WHERE l.state = $1 AND (l.credential_id, l.account_id) > ($2, $3::uuid) ORDER BY l.credential_id, l.account_id LIMIT $4`,
        [state, from.credential_id, from.account_id, limit],
      );
    },
    async watchedStates(): Promise<string[]> {
      return (await store.query<{ state: string }>('SELECT DISTINCT state FROM watched_licences ORDER BY state')).map((r) => r.state);
    },
    /** Takes the expiry pass for `holder` unless another holder was heard from within `staleMs`; true when taken. */
    async claimExpiryPass(holder: string, now: Date, staleMs: number): Promise<boolean> {
      const rows = await store.query(
        `UPDATE expiry_pass SET holder = $1, heartbeat_at = $2 WHERE id = 1 AND (holder IS NULL OR holder = $1 OR heartbeat_at < $3) RETURNING id`,
        [holder, now, new Date(now.getTime() - staleMs)],
      );
      return rows.length > 0;
    },
    async beatExpiryPass(holder: string, now: Date) {
      await store.query('UPDATE expiry_pass SET heartbeat_at = $2 WHERE id = 1 AND holder = $1', [holder, now]);
    },
    async finishExpiryPass(holder: string, now: Date) {
      await store.query('UPDATE expiry_pass SET holder = NULL, heartbeat_at = NULL, finished_at = $2 WHERE id = 1 AND holder = $1', [holder, now]);
    },
    /** Committed events after `afterSeq`, oldest first: the public ones and `account`'s own. */
    async list(f: { afterSeq: number; account?: string; since?: string; states?: string[]; types?: string[]; limit: number }): Promise<StoredChange[]> {
      const rows = await store.query(
        `SELECT ${COLUMNS} FROM change_events
         WHERE seq > $1 AND ($2::date IS NULL OR detected_at >= $2::date) AND ($3::text[] IS NULL OR state = ANY($3)) AND ($4::text[] IS NULL OR type = ANY($4))
           AND (account_id IS NULL OR account_id = $6::uuid)
         ORDER BY seq LIMIT $5`,
        [f.afterSeq, f.since ?? null, f.states ?? null, f.types ?? null, f.limit, f.account ?? null],
      );
      return rows.map(change);
    },
    /** Published events by feed number (those still kept). */
    async bySeqs(seqs: number[]): Promise<StoredChange[]> {
      return (await store.query(`SELECT ${COLUMNS} FROM change_events WHERE seq = ANY($1::bigint[])`, [seqs])).map(change);
    },
    async prunedThrough(): Promise<number> {
      const [row] = await store.query<{ pruned_through: string }>('SELECT pruned_through FROM change_feed_state WHERE id = 1');
      return Number(row.pruned_through);
    },
    /** Drops committed events detected before `before`, and records how far the feed is pruned. */
    async prune(before: Date) {
      await store.transaction(async (tx) => {
        const [row] = await tx.query<{ max: string | null }>('SELECT max(seq) AS max FROM change_events WHERE seq IS NOT NULL AND detected_at < $1', [before]);
        if (row.max === null) return;
        await tx.query('DELETE FROM change_events WHERE seq <= $1', [row.max]);
        await tx.query('UPDATE change_feed_state SET pruned_through = greatest(pruned_through, $1) WHERE id = 1', [row.max]);
        await tx.query("DELETE FROM change_runs r WHERE status = 'committed' AND NOT EXISTS (SELECT 1 FROM change_events e WHERE e.run_id = r.id)");
      });
    },
  };
}
export type ChangesRepo = ReturnType<typeof createChangesRepo>;
