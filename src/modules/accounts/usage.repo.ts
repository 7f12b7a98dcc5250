import type { SqlStore } from '../../store/sql-store.js';
import type { UsageRows } from './usage-counts.js';

/**
 * The side store's usage: free accounts' quota leases, the counts the meter flushes (by endpoint,
 * by day, monthly totals), and the tokens that tell a write that landed from one that did not.
 */
export function createUsageRepo(store: SqlStore) {
  return {
    /**
     * Leases up to `size` units of the month's quota atomically (the row is locked while it is
     * read and raised): the month's new total and how many units were taken, 0 when spent.
     * `token` marks the write (see landed).
     */
    async leaseQuota(accountId: string, period: string, quota: number, size: number, token: string): Promise<{ used: number; taken: number }> {
      return store.transaction(async (tx) => {
        await tx.query('INSERT INTO usage_totals (account_id, period, used) VALUES ($1, $2, 0) ON CONFLICT (account_id, period) DO NOTHING', [accountId, period]);
        const [row] = await tx.query<{ used: number }>('SELECT used FROM usage_totals WHERE account_id = $1 AND period = $2 FOR UPDATE', [accountId, period]);
        const taken = Math.max(0, Math.min(size, quota - row.used));
        if (taken) await tx.query('UPDATE usage_totals SET used = used + $3 WHERE account_id = $1 AND period = $2', [accountId, period, taken]);
        await tx.query('INSERT INTO usage_ops (token, units) VALUES ($1, $2)', [token, taken]);
        return { used: row.used + taken, taken };
      });
    },
    /** Gives back leased units that were not used; `token` marks the write (see landed). */
    async returnQuota(accountId: string, period: string, units: number, token: string) {
      await store.transaction(async (tx) => {
        await tx.query('UPDATE usage_totals SET used = used - $3 WHERE account_id = $1 AND period = $2', [accountId, period, units]);
        await tx.query('INSERT INTO usage_ops (token, units) VALUES ($1, $2)', [token, units]);
      });
    },
    /** Which of these usage writes landed, with their units; a write that failed may have. */
    async landed(tokens: string[]): Promise<Map<string, number>> {
      const rows = await store.query<{ token: string; units: number }>('SELECT token, units FROM usage_ops WHERE token = ANY($1::uuid[])', [tokens]);
      return new Map(rows.map((r) => [r.token, r.units]));
    },
    /** Forgets the tokens of usage writes older than `before`. */
    async pruneOps(before: Date) {
      await store.query('DELETE FROM usage_ops WHERE created_at < $1', [before]);
    },
    async usedThisPeriod(accountId: string, period: string): Promise<number> {
      const [row] = await store.query<{ used: number }>('SELECT used FROM usage_totals WHERE account_id = $1 AND period = $2', [accountId, period]);
      return row?.used ?? 0;
    },
    async callsByEndpoint(accountId: string, period: string): Promise<Record<string, number>> {
      const rows = await store.query<{ endpoint: string; calls: number }>(
        'SELECT endpoint, calls FROM usage_by_endpoint WHERE account_id = $1 AND period = $2 ORDER BY endpoint',
        [accountId, period],
      );
      return Object.fromEntries(rows.map((r) => [r.endpoint, r.calls]));
    },
    /** The month's metered calls by day (YYYY-MM-DD), days without calls left out. */
    async callsByDay(accountId: string, from: Date, to: Date): Promise<Record<string, number>> {
      const rows = await store.query<{ day: string; calls: number }>(
        "SELECT to_char(day, 'YYYY-MM-DD') AS day, calls FROM usage_by_day WHERE account_id = $1 AND day >= $2::date AND day < $3::date ORDER BY day",
        [accountId, from.toISOString().slice(0, 10), to.toISOString().slice(0, 10)],
      );
      return Object.fromEntries(rows.map((r) => [r.day, r.calls]));
    },
    /**
     * Adds buffered counts in one transaction: per endpoint and per day always, to the totals
     * only for accounts metered in memory; and stamps the keys used.
     */
    async addUsage({ byEndpoint, byDay, totals }: UsageRows, keyIds: string[], at: Date, token: string) {
      if (!byEndpoint.length && !byDay.length && !totals.length && !keyIds.length) return;
      await store.transaction(async (tx) => {
        await tx.query('INSERT INTO usage_ops (token, units) VALUES ($1, 0)', [token]);
        if (keyIds.length) await tx.query('UPDATE api_keys SET last_used_at = $2 WHERE id = ANY($1::uuid[])', [keyIds, at]);
        for (const u of byEndpoint) {
          await tx.query(
            `INSERT INTO usage_by_endpoint (account_id, period, endpoint, calls) VALUES ($1, $2, $3, $4)
             ON CONFLICT (account_id, period, endpoint) DO UPDATE SET calls = usage_by_endpoint.calls + EXCLUDED.calls`,
            [u.account_id, u.period, u.endpoint, u.calls],
          );
        }
        for (const d of byDay) {
          await tx.query(
            `INSERT INTO usage_by_day (account_id, day, calls) VALUES ($1, $2::date, $3)
             ON CONFLICT (account_id, day) DO UPDATE SET calls = usage_by_day.calls + EXCLUDED.calls`,
            [d.account_id, d.day, d.calls],
          );
        }
        for (const t of totals) {
          await tx.query(
            `INSERT INTO usage_totals (account_id, period, used) VALUES ($1, $2, $3)
             ON CONFLICT (account_id, period) DO UPDATE SET used = usage_totals.used + EXCLUDED.used`,
            [t.account_id, t.period, t.used],
          );
        }
      });
    },
  };
}
export type UsageRepo = ReturnType<typeof createUsageRepo>;
