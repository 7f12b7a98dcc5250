import type { SqlStore } from '../../store/sql-store.js';

export type LinkPurpose = 'verify' | 'sign_in';

/**
 * E-mail links, sessions, flashes (a secret kept sealed for the page after a form) and rate-limit
 * counters; tokens are stored only as their SHA-256.
 */
export function createDashboardRepo(store: SqlStore) {
  return {
    async insertLink(tokenHash: string, email: string, purpose: LinkPurpose, expiresAt: Date) {
      await store.query('INSERT INTO email_links (token_hash, email, purpose, expires_at) VALUES ($1, $2, $3, $4)', [tokenHash, email, purpose, expiresAt]);
    },
    async link(tokenHash: string): Promise<{ email: string; purpose: LinkPurpose; expires_at: Date; used_at: Date | null } | undefined> {
      const [row] = await store.query<{ email: string; purpose: LinkPurpose; expires_at: Date; used_at: Date | null }>(
        'SELECT email, purpose, expires_at, used_at FROM email_links WHERE token_hash = $1',
        [tokenHash],
      );
      return row && { ...row, expires_at: new Date(row.expires_at), used_at: row.used_at && new Date(row.used_at) };
    },
    /** Marks an unused, unexpired link used; undefined when it was not (a second use loses the race). */
    async useLink(tokenHash: string, at: Date): Promise<{ email: string; purpose: LinkPurpose } | undefined> {
      const [row] = await store.query<{ email: string; purpose: LinkPurpose }>(
        'UPDATE email_links SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING email, purpose',
        [tokenHash, at],
      );
      return row;
    },
    async insertSession(idHash: string, accountId: string, expiresAt: Date) {
      await store.query('INSERT INTO sessions (id_hash, account_id, expires_at) VALUES ($1, $2, $3)', [idHash, accountId, expiresAt]);
    },
    async sessionAccount(idHash: string, at: Date): Promise<string | undefined> {
      const [row] = await store.query<{ account_id: string }>('SELECT account_id FROM sessions WHERE id_hash = $1 AND expires_at > $2', [idHash, at]);
      return row?.account_id;
    },
    async deleteSession(idHash: string) {
      await store.query('DELETE FROM sessions WHERE id_hash = $1', [idHash]);
    },
    /** Keeps a session's one flash (replacing an earlier one); nothing when the session has ended. */
    async putFlash(sessionHash: string, page: string, payload: string, expiresAt: Date) {
      await store.query(
        `INSERT INTO dashboard_flash (session_hash, page, payload, expires_at) SELECT id_hash, $2, $3, $4 FROM sessions WHERE id_hash = $1
         ON CONFLICT (session_hash) DO UPDATE SET page = EXCLUDED.page, payload = EXCLUDED.payload, expires_at = EXCLUDED.expires_at`,
        [sessionHash, page, payload, expiresAt],
      );
    },
    /** Takes (deletes) the session's unexpired flash for `page`. */
    async takeFlash(sessionHash: string, page: string, at: Date): Promise<string | undefined> {
      const [row] = await store.query<{ payload: string }>('DELETE FROM dashboard_flash WHERE session_hash = $1 AND page = $2 AND expires_at > $3 RETURNING payload', [sessionHash, page, at]);
      return row?.payload;
    },
    /** Counts a hit in `key`'s window starting at `windowStart`; returns the window's hits. */
    async hit(key: string, windowStart: Date): Promise<number> {
      const [row] = await store.query<{ hits: number }>(
        `INSERT INTO auth_limits (key, window_start, hits) VALUES ($1, $2, 1)
         ON CONFLICT (key, window_start) DO UPDATE SET hits = auth_limits.hits + 1 RETURNING hits`,
        [key, windowStart],
      );
      return row.hits;
    },
    /** Forgets expired links and sessions and past windows. */
    async prune(before: Date) {
      await store.query('DELETE FROM email_links WHERE expires_at < $1', [before]);
      await store.query('DELETE FROM dashboard_flash WHERE expires_at < $1', [before]);
      await store.query('DELETE FROM sessions WHERE expires_at < $1', [before]);
      await store.query('DELETE FROM auth_limits WHERE window_start < $1', [before]);
    },
  };
}
export type DashboardRepo = ReturnType<typeof createDashboardRepo>;
