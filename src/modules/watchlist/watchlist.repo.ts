import { lockAccount } from '../accounts/accounts.repo.js';
import type { SqlStore, SqlTx } from '../../store/sql-store.js';

export interface WatchedRow {
  credential_id: string;
  state: string;
  license_number: string;
  added_at: string;
}

/** A licence to watch: its credential id, state and canonical number. */
export interface WatchItem {
  credential_id: string;
  state: string;
  license_number: string;
}

const row = (r: Record<string, unknown>): WatchedRow => ({
  credential_id: r.credential_id as string,
  state: r.state as string,
  license_number: r.license_number as string,
  added_at: new Date(r.added_at as string).toISOString(),
});

export function createWatchlistRepo(store: SqlStore) {
  return {
    /**
     * Adds the items not watched yet, unless the account would then watch more than `limit`:
     * the account's row is locked, so concurrent adds cannot pass the limit together.
     */
    async add(accountId: string, items: WatchItem[], limit: number) {
      return store.transaction(async (tx) => {
        await lockAccount(tx, accountId);
        const ids = items.map((i) => i.credential_id);
        const [{ watched }] = await tx.query<{ watched: number }>('SELECT count(*)::int AS watched FROM watched_licences WHERE account_id = $1', [accountId]);
        const [{ already }] = await tx.query<{ already: number }>('SELECT count(*)::int AS already FROM watched_licences WHERE account_id = $1 AND credential_id = ANY($2::text[])', [accountId, ids]);
        const adding = items.length - already;
        if (watched + adding > limit) return { over: true as const, watched, adding };
        await tx.query(
          `INSERT INTO watched_licences (account_id, credential_id, state, license_number)
           SELECT $1, r.credential_id, r.state, r.license_number FROM jsonb_to_recordset($2::jsonb) AS r(credential_id text, state text, license_number text)
           ON CONFLICT (account_id, credential_id) DO NOTHING`,
          [accountId, JSON.stringify(items)],
        );
        return { over: false as const, added: adding, already, watched: watched + adding };
      });
    },
    /**
     * In the caller's `tx`: adds `items` (distinct licences) in their order as long as the account
     * watches at most `limit`, and returns those left out. The account's row is locked first, as
     * `add` locks it; a caller that wrote rows naming the account before holds only their KEY SHARE
     * lock, which this lock does not wait for (lockAccount).
     */
    async addInOrder(tx: SqlTx, accountId: string, items: WatchItem[], limit: number): Promise<{ added: number; already: number; leftOut: string[] }> {
      await lockAccount(tx, accountId);
      const [{ watched }] = await tx.query<{ watched: number }>('SELECT count(*)::int AS watched FROM watched_licences WHERE account_id = $1', [accountId]);
      const on = await tx.query<{ credential_id: string }>('SELECT credential_id FROM watched_licences WHERE account_id = $1 AND credential_id = ANY($2::text[])', [
        accountId,
        items.map((i) => i.credential_id),
      ]);
      const already = new Set(on.map((r) => r.credential_id));
      const fresh = items.filter((i) => !already.has(i.credential_id));
      const room = Math.max(0, limit - watched);
      await tx.query(
        `INSERT INTO watched_licences (account_id, credential_id, state, license_number)
         SELECT $1, r.credential_id, r.state, r.license_number
         FROM jsonb_to_recordset($2::jsonb) AS r(credential_id text, state text, license_number text, n integer) ORDER BY r.n`,
        [accountId, JSON.stringify(fresh.slice(0, room).map((i, n) => ({ ...i, n })))],
      );
      return { added: Math.min(room, fresh.length), already: already.size, leftOut: fresh.slice(room).map((i) => i.credential_id) };
    },
    async page(accountId: string, skip: number, limit: number): Promise<{ rows: WatchedRow[]; total: number }> {
      const [{ total }] = await store.query<{ total: number }>('SELECT count(*)::int AS total FROM watched_licences WHERE account_id = $1', [accountId]);
      const rows = await store.query('SELECT credential_id, state, license_number, added_at FROM watched_licences WHERE account_id = $1 ORDER BY state, license_number OFFSET $2 LIMIT $3', [accountId, skip, limit]);
      return { rows: rows.map(row), total };
    },
    async remove(accountId: string, credentialId: string): Promise<boolean> {
      return (await store.query('DELETE FROM watched_licences WHERE account_id = $1 AND credential_id = $2 RETURNING credential_id', [accountId, credentialId])).length > 0;
    },
    /** Follows a whole state unless the account would then follow more than `limit` (its row locked meanwhile). */
    async subscribeState(accountId: string, state: string, limit: number): Promise<{ over: boolean; states: number }> {
      return store.transaction(async (tx) => {
        await lockAccount(tx, accountId);
        const rows = await tx.query<{ state: string }>('SELECT state FROM state_subscriptions WHERE account_id = $1', [accountId]);
        if (rows.some((r) => r.state === state)) return { over: false, states: rows.length };
        if (rows.length + 1 > limit) return { over: true, states: rows.length };
        await tx.query('INSERT INTO state_subscriptions (account_id, state) VALUES ($1, $2)', [accountId, state]);
        return { over: false, states: rows.length + 1 };
      });
    },
    async subscribedStates(accountId: string): Promise<{ state: string; added_at: string }[]> {
      const rows = await store.query<{ state: string; added_at: string }>('SELECT state, added_at FROM state_subscriptions WHERE account_id = $1 ORDER BY state', [accountId]);
      return rows.map((r) => ({ state: r.state, added_at: new Date(r.added_at).toISOString() }));
    },
    /** The account's expiry days, or null for the default. */
    async expiryDays(accountId: string): Promise<number[] | null> {
      const [row] = await store.query<{ expiry_days: number[] }>('SELECT expiry_days FROM watch_settings WHERE account_id = $1', [accountId]);
      return row?.expiry_days ?? null;
    },
    async setExpiryDays(accountId: string, days: number[]) {
      await store.query('INSERT INTO watch_settings (account_id, expiry_days) VALUES ($1, $2::integer[]) ON CONFLICT (account_id) DO UPDATE SET expiry_days = EXCLUDED.expiry_days', [accountId, days]);
    },
    async unsubscribeState(accountId: string, state: string): Promise<boolean> {
      return (await store.query('DELETE FROM state_subscriptions WHERE account_id = $1 AND state = $2 RETURNING state', [accountId, state])).length > 0;
    },
  };
}
export type WatchlistRepo = ReturnType<typeof createWatchlistRepo>;
