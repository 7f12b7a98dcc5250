import { lockAccount } from '../accounts/accounts.repo.js';
import type { EventType } from '../../domain/webhook-events.js';
import type { SqlStore, SqlTx } from '../../store/sql-store.js';

export interface EndpointRow {
  id: string;
  account_id: string;
  url: string;
  description: string | null;
  event_types: EventType[] | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** The secret a rotation replaced, while it still signs at `at` (else null). */
export const previousSecret = (e: EndpointRow, at: Date): string | null =>
  e.previous_secret && e.previous_secret_expires_at && Date.parse(e.previous_secret_expires_at) > at.getTime() ? e.previous_secret : null;

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  /** A change event's; null for another event (a job's), which carries its `payload`. */
  event_seq: number | null;
  event_type: EventType;
  payload: { type: string; timestamp: string; data: { id: string } } | null;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  retries_used: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  last_response_excerpt: string | null;
  created_at: string;
}

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());

const endpoint = (r: Record<string, unknown>): EndpointRow => ({
  ...(r as unknown as EndpointRow),
  previous_secret_expires_at: iso(r.previous_secret_expires_at),
  created_at: iso(r.created_at)!,
  updated_at: iso(r.updated_at)!,
});

const delivery = (r: Record<string, unknown>): DeliveryRow => ({
  ...(r as unknown as DeliveryRow),
  event_seq: r.event_seq === null ? null : Number(r.event_seq),
  next_attempt_at: iso(r.next_attempt_at),
  last_attempt_at: iso(r.last_attempt_at),
  created_at: iso(r.created_at)!,
});

const ENDPOINT_COLUMNS = 'id, account_id, url, description, event_types, secret, previous_secret, previous_secret_expires_at, status, disabled_reason, created_at, updated_at';
const DELIVERY_COLUMNS = 'id, endpoint_id, event_seq, event_type, payload, status, attempts, retries_used, next_attempt_at, last_attempt_at, last_status_code, last_error, last_response_excerpt, created_at';

/** Endpoints, state subscriptions and deliveries in the side store. */
export function createWebhooksRepo(store: SqlStore) {
  return {
    /**
     * Stores one delivery per published event of the run and enabled endpoint of an account that
     * follows the event's state or watches its licence (or, for a supervision, the supervisor's; for a
     * transfer, both supervisors'; for a bulk move, the supervisor the roster moved to).
     * Driven by who is interested, not by every endpoint: a run of 90,000 events meets only the
     * followers of its state and the watchers of its licences. A run of accounts' own events
     * (alerts, `ownOnly`; never mixed with public ones) goes to those accounts' endpoints alone.
     */
    async fanOut(tx: SqlTx, runId: string, at: Date, ownOnly = false) {
      if (ownOnly) {
        await tx.query(
          `INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, event_type, status, next_attempt_at, created_at)
           SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), w.id, e.seq, e.type, 'pending', $2::timestamptz, $2::timestamptz
           FROM change_events e
           JOIN webhook_endpoints w ON w.account_id = e.account_id AND w.status = 'enabled' AND (w.event_types IS NULL OR e.type = ANY(w.event_types))
           WHERE e.run_id = $1 AND e.account_id IS NOT NULL
           ORDER BY e.seq`,
          [runId, at],
        );
        return;
      }
      await tx.query(
        `WITH interested AS (
           SELECT e.seq, s.account_id FROM change_events e JOIN state_subscriptions s ON s.state = e.state WHERE e.run_id = $1 AND e.account_id IS NULL
           UNION
           SELECT e.seq, l.account_id FROM change_events e JOIN watched_licences l ON l.credential_id = e.credential_id WHERE e.run_id = $1 AND e.account_id IS NULL
           UNION
           SELECT e.seq, l.account_id FROM change_events e JOIN watched_licences l ON l.credential_id = e.relationship->>'supervisor_license_credential_id' WHERE e.run_id = $1 AND e.account_id IS NULL
           UNION
           SELECT e.seq, l.account_id FROM change_events e JOIN watched_licences l ON l.credential_id = e.transfer->'from'->>'supervisor_license_credential_id' WHERE e.run_id = $1 AND e.transfer IS NOT NULL
           UNION
           SELECT e.seq, l.account_id FROM change_events e JOIN watched_licences l ON l.credential_id = e.bulk_move->>'to_supervisor_license_credential_id' WHERE e.run_id = $1 AND e.type = 'roster_moved'
         )
         INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, event_type, status, next_attempt_at, created_at)
         SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), w.id, e.seq, e.type, 'pending', $2::timestamptz, $2::timestamptz
         FROM interested i
         JOIN change_events e ON e.seq = i.seq
         JOIN webhook_endpoints w ON w.account_id = i.account_id AND w.status = 'enabled' AND (w.event_types IS NULL OR e.type = ANY(w.event_types))
         ORDER BY e.seq`,
        [runId, at],
      );
    },

    /**
     * Stores a delivery of an event that is not a change (a job's) to each enabled endpoint of the
     * account subscribed to its type, in the transaction that decides the event.
     */
    async fanOutEvent(tx: SqlTx, accountId: string, type: EventType, payload: object, at: Date) {
      await tx.query(
        `INSERT INTO webhook_deliveries (id, endpoint_id, event_type, payload, status, next_attempt_at, created_at)
         SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), w.id, $2, $3::jsonb, 'pending', $4::timestamptz, $4::timestamptz
         FROM webhook_endpoints w WHERE w.account_id = $1 AND w.status = 'enabled' AND (w.event_types IS NULL OR $2 = ANY(w.event_types))`,
        [accountId, type, JSON.stringify(payload), at],
      );
    },

    /** Inserts unless the account holds `limit` endpoints already (its row is locked meanwhile). */
    async createEndpoint(e: Pick<EndpointRow, 'id' | 'account_id' | 'url' | 'description' | 'event_types' | 'secret'>, now: Date, limit: number): Promise<EndpointRow | undefined> {
      return store.transaction(async (tx) => {
        await lockAccount(tx, e.account_id);
        const [{ n }] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoints WHERE account_id = $1', [e.account_id]);
        if (n >= limit) return undefined;
        const [row] = await tx.query(
          `INSERT INTO webhook_endpoints (id, account_id, url, description, event_types, secret, status, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, 'enabled', $7, $7) RETURNING ${ENDPOINT_COLUMNS}`,
          [e.id, e.account_id, e.url, e.description, e.event_types, e.secret, now],
        );
        return endpoint(row);
      });
    },
    async endpoints(accountId: string): Promise<EndpointRow[]> {
      return (await store.query(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE account_id = $1 ORDER BY created_at, id`, [accountId])).map(endpoint);
    },
    async endpoint(accountId: string, id: string): Promise<EndpointRow | undefined> {
      const [row] = await store.query(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE account_id = $1 AND id = $2`, [accountId, id]);
      return row ? endpoint(row) : undefined;
    },
    /** An endpoint, whatever its account (for the dispatcher). */
    async endpointById(id: string): Promise<EndpointRow | undefined> {
      const [row] = await store.query(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1`, [id]);
      return row ? endpoint(row) : undefined;
    },
    async updateEndpoint(
      accountId: string,
      id: string,
      set: Partial<Pick<EndpointRow, 'url' | 'description' | 'event_types' | 'status' | 'disabled_reason'>>,
      now: Date,
    ): Promise<EndpointRow | undefined> {
      const [row] = await store.query(
        `UPDATE webhook_endpoints SET
           url = CASE WHEN $3::boolean THEN $4 ELSE url END,
           description = CASE WHEN $5::boolean THEN $6 ELSE description END,
           event_types = CASE WHEN $7::boolean THEN $8::text[] ELSE event_types END,
           status = coalesce($9, status),
           disabled_reason = CASE WHEN coalesce($9, status) = 'enabled' THEN NULL WHEN $9 IS NOT NULL THEN $10 ELSE disabled_reason END,
           updated_at = $11
         WHERE account_id = $1 AND id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
        [
          accountId, id,
          'url' in set, set.url ?? null,
          'description' in set, set.description ?? null,
          'event_types' in set, set.event_types ?? null,
          set.status ?? null, set.disabled_reason ?? null,
          now,
        ],
      );
      return row ? endpoint(row) : undefined;
    },
    /** A receiver answered 410 Gone: it wants nothing more. */
    async disableEndpoint(id: string, reason: string, now: Date) {
      await store.query("UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = $2, updated_at = $3 WHERE id = $1", [id, reason, now]);
    },
    /** Every enabled endpoint, whatever its account (their URLs are checked again at start). */
    async enabledEndpoints(): Promise<Pick<EndpointRow, 'id' | 'account_id' | 'url'>[]> {
      return store.query("SELECT id, account_id, url FROM webhook_endpoints WHERE status = 'enabled' ORDER BY id");
    },
    /** The address rules refuse its URL: disabled, and what it had pending failed with `error`. */
    async refuseEndpoint(id: string, reason: string, error: string, now: Date) {
      await store.transaction(async (tx) => {
        await tx.query("UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = $2, updated_at = $3 WHERE id = $1", [id, reason, now]);
        await tx.query("UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = $2 WHERE endpoint_id = $1 AND status = 'pending'", [id, error]);
      });
    },
    async rotateSecret(accountId: string, id: string, secret: string, previousUntil: Date, now: Date): Promise<EndpointRow | undefined> {
      const [row] = await store.query(
        `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = $4, secret = $3, updated_at = $5
         WHERE account_id = $1 AND id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
        [accountId, id, secret, previousUntil, now],
      );
      return row ? endpoint(row) : undefined;
    },
    async deleteEndpoint(accountId: string, id: string): Promise<boolean> {
      return (await store.query('DELETE FROM webhook_endpoints WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id])).length > 0;
    },

    async deliveries(endpointId: string, status: DeliveryRow['status'] | undefined, skip: number, limit: number): Promise<{ rows: DeliveryRow[]; total: number }> {
      const [{ total }] = await store.query<{ total: number }>(
        'SELECT count(*)::int AS total FROM webhook_deliveries WHERE endpoint_id = $1 AND ($2::text IS NULL OR status = $2)',
        [endpointId, status ?? null],
      );
      const rows = await store.query(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE endpoint_id = $1 AND ($2::text IS NULL OR status = $2)
         ORDER BY created_at DESC, event_seq DESC OFFSET $3 LIMIT $4`,
        [endpointId, status ?? null, skip, limit],
      );
      return { rows: rows.map(delivery), total };
    },
    /** Due again now, with the whole retry schedule ahead of it. */
    async redeliver(endpointId: string, id: string, now: Date): Promise<DeliveryRow | undefined> {
      const [row] = await store.query(
        `UPDATE webhook_deliveries SET status = 'pending', retries_used = 0, next_attempt_at = $3
         WHERE endpoint_id = $1 AND id = $2 RETURNING ${DELIVERY_COLUMNS}`,
        [endpointId, id, now],
      );
      return row ? delivery(row) : undefined;
    },

    /** Endpoints (enabled) with a delivery due by `now`. */
    async dueEndpoints(now: Date): Promise<string[]> {
      return (
        await store.query<{ endpoint_id: string }>(
          `SELECT w.id AS endpoint_id FROM webhook_endpoints w
           WHERE w.status = 'enabled' AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = w.id AND d.status = 'pending' AND d.next_attempt_at <= $1)`,
          [now],
        )
      ).map((r) => r.endpoint_id);
    },
    /**
     * Claims up to `limit` due deliveries of an endpoint, oldest event first, by moving them out of
     * reach until `leaseUntil`: another process (or this one after a crash) sends them after that.
     */
    async claim(endpointId: string, now: Date, leaseUntil: Date, limit: number): Promise<DeliveryRow[]> {
      const rows = await store.query(
        `UPDATE webhook_deliveries SET next_attempt_at = $3 WHERE id IN (
           SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending' AND next_attempt_at <= $2
           ORDER BY next_attempt_at, event_seq LIMIT $4 FOR UPDATE SKIP LOCKED)
         RETURNING ${DELIVERY_COLUMNS}`,
        [endpointId, now, leaseUntil, limit],
      );
      return rows.map(delivery).sort((a, b) => (a.event_seq ?? 0) - (b.event_seq ?? 0));
    },
    /** What an attempt came to: `next` a time to retry at, or the delivery's final status. */
    async recordAttempt(
      id: string,
      a: { at: Date; statusCode: number | null; error: string | null; excerpt: string | null; outcome: { status: 'succeeded' | 'failed' } | { retryAt: Date } },
    ) {
      const retry = 'retryAt' in a.outcome;
      await store.query(
        `UPDATE webhook_deliveries SET attempts = attempts + 1, last_attempt_at = $2, last_status_code = $3, last_error = $4, last_response_excerpt = $5,
           status = $6, next_attempt_at = $7, retries_used = retries_used + CASE WHEN $8::boolean THEN 1 ELSE 0 END
         WHERE id = $1`,
        [id, a.at, a.statusCode, a.error, a.excerpt, retry ? 'pending' : (a.outcome as { status: string }).status, retry ? (a.outcome as { retryAt: Date }).retryAt : null, retry],
      );
    },
    /** Drops finished deliveries created before `before` (the log keeps the rest). */
    /** Deliveries waiting to be sent, and when the one waiting longest past its due time fell due (metrics). */
    async backlog(at: Date): Promise<{ pending: number; oldestDueAt: Date | null }> {
      const [row] = await store.query<{ pending: number; oldest: Date | string | null }>(
        `SELECT count(*)::int AS pending, min(next_attempt_at) FILTER (WHERE next_attempt_at <= $1) AS oldest
         FROM webhook_deliveries WHERE status = 'pending'`,
        [at],
      );
      return { pending: row.pending, oldestDueAt: row.oldest === null ? null : new Date(row.oldest) };
    },
    async prune(before: Date) {
      await store.query("DELETE FROM webhook_deliveries WHERE status <> 'pending' AND created_at < $1", [before]);
    },
  };
}
export type WebhooksRepo = ReturnType<typeof createWebhooksRepo>;
