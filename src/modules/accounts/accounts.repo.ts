import type { SqlStore, SqlTx } from '../../store/sql-store.js';
import type { PlanName } from '../../domain/plans.js';
import type { Account } from './account.js';

/**
 * Serializes what counts against an account's limits (watchlist adds, webhook endpoints, a job's
 * watch) until `tx` ends. NO KEY UPDATE, not UPDATE: rows whose foreign key names the account take
 * a KEY SHARE lock on it, which UPDATE waits for (two watched jobs finishing together deadlocked).
 */
export async function lockAccount(tx: SqlTx, accountId: string): Promise<void> {
  await tx.query('SELECT id FROM accounts WHERE id = $1 FOR NO KEY UPDATE', [accountId]);
}

export interface KeyRow {
  id: string;
  account_id: string;
  label: string | null;
  prefix: string;
  last_four: string;
  key_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v === null || v === undefined ? null : String(v));
const account = (r: Record<string, unknown>): Account => ({
  ...(r as unknown as Account),
  trial_ends_at: iso(r.trial_ends_at),
  created_at: iso(r.created_at)!,
});
const key = (r: Record<string, unknown>): KeyRow => ({
  ...(r as unknown as KeyRow),
  created_at: iso(r.created_at)!,
  last_used_at: iso(r.last_used_at),
  revoked_at: iso(r.revoked_at),
});

const ACCOUNT_COLUMNS = 'id, email, plan, trial_plan, trial_ends_at, is_demo, created_at';
const KEY_COLUMNS = 'id, account_id, label, prefix, last_four, key_hash, created_at, last_used_at, revoked_at';

export function createAccountsRepo(store: SqlStore) {
  return {
    async insertAccount(a: Omit<Account, 'created_at'>, firstKey: Omit<KeyRow, 'created_at' | 'last_used_at' | 'revoked_at'>) {
      return store.transaction(async (tx) => {
        const [row] = await tx.query(
          `INSERT INTO accounts (id, email, plan, trial_plan, trial_ends_at, is_demo) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${ACCOUNT_COLUMNS}`,
          [a.id, a.email, a.plan, a.trial_plan, a.trial_ends_at, a.is_demo],
        );
        const [k] = await tx.query(
          `INSERT INTO api_keys (id, account_id, label, prefix, last_four, key_hash) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${KEY_COLUMNS}`,
          [firstKey.id, firstKey.account_id, firstKey.label, firstKey.prefix, firstKey.last_four, firstKey.key_hash],
        );
        return { account: account(row), key: key(k) };
      });
    },
    async accountById(id: string) {
      const [row] = await store.query(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = $1`, [id]);
      return row ? account(row) : undefined;
    },
    /** An account without keys (self-service: the first key is made in the dashboard); the one on file when the address has one. */
    async insertOrGetAccount(a: Omit<Account, 'created_at'>): Promise<Account> {
      const [row] = await store.query(
        `INSERT INTO accounts (id, email, plan, trial_plan, trial_ends_at, is_demo) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (email) DO NOTHING RETURNING ${ACCOUNT_COLUMNS}`,
        [a.id, a.email, a.plan, a.trial_plan, a.trial_ends_at, a.is_demo],
      );
      if (row) return account(row);
      const [existing] = await store.query(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE email = $1`, [a.email]);
      return account(existing);
    },
    async accountByEmail(email: string) {
      const [row] = await store.query(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE email = $1`, [email]);
      return row ? account(row) : undefined;
    },
    async listAccounts() {
      return (await store.query(`SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY created_at, id`)).map(account);
    },
    async countAccounts(): Promise<number> {
      const [row] = await store.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts');
      return row.n;
    },
    async setPlan(id: string, plan: PlanName, trialPlan: PlanName | null, trialEndsAt: string | null) {
      const [row] = await store.query(
        `UPDATE accounts SET plan = $2, trial_plan = $3, trial_ends_at = $4 WHERE id = $1 RETURNING ${ACCOUNT_COLUMNS}`,
        [id, plan, trialPlan, trialEndsAt],
      );
      return row ? account(row) : undefined;
    },
    async insertKey(k: Omit<KeyRow, 'created_at' | 'last_used_at' | 'revoked_at'>) {
      const [row] = await store.query(
        `INSERT INTO api_keys (id, account_id, label, prefix, last_four, key_hash) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${KEY_COLUMNS}`,
        [k.id, k.account_id, k.label, k.prefix, k.last_four, k.key_hash],
      );
      return key(row);
    },
    /** The key with that hash, revoked or not, with its account. */
    async keyByHash(hash: string) {
      const [row] = await store.query(
        `SELECT k.id AS key_id, k.key_hash, k.revoked_at, ${ACCOUNT_COLUMNS.split(', ').map((c) => `a.${c}`).join(', ')}
           FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = $1`,
        [hash],
      );
      if (!row) return undefined;
      return { keyId: row.key_id as string, keyHash: row.key_hash as string, revokedAt: iso(row.revoked_at), account: account(row) };
    },
    async activeKeys(accountId: string) {
      return (
        await store.query(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL ORDER BY created_at, id`, [accountId])
      ).map(key);
    },
    /** Revokes a key of the account unless it is the account's last active one. */
    async revokeKey(accountId: string, keyId: string, allowLast = false): Promise<{ key?: KeyRow; last?: boolean }> {
      return store.transaction(async (tx) => {
        // Lock the account's keys so two concurrent deletes cannot remove the last two.
        const keys = await tx.query(`SELECT id FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL ORDER BY id FOR UPDATE`, [accountId]);
        if (!keys.some((k) => k.id === keyId)) return {};
        if (keys.length === 1 && !allowLast) return { last: true };
        const [row] = await tx.query(`UPDATE api_keys SET revoked_at = now() WHERE id = $1 RETURNING ${KEY_COLUMNS}`, [keyId]);
        return { key: key(row) };
      });
    },
    /** Operator revocation: any key, even the last. */
    async revokeAnyKey(keyId: string) {
      const [row] = await store.query(`UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 RETURNING ${KEY_COLUMNS}`, [keyId]);
      return row ? key(row) : undefined;
    },
    async ping() {
      await store.query('SELECT 1');
    },
  };
}
export type AccountsRepo = ReturnType<typeof createAccountsRepo>;
