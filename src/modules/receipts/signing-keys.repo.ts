import type { SqlStore } from '../../store/sql-store.js';

export type KeyStatus = 'active' | 'retired' | 'compromised';

export interface KeyRow {
  kid: string;
  public_jwk: { kty: 'OKP'; crv: 'Ed25519'; x: string };
  status: KeyStatus;
  created_at: string;
  retired_at: string | null;
  compromised_at: string | null;
}

const iso = (v: unknown) => (v == null ? null : new Date(v as string).toISOString());
const toRow = (r: Record<string, unknown>): KeyRow => ({
  ...(r as unknown as KeyRow),
  created_at: iso(r.created_at)!,
  retired_at: iso(r.retired_at),
  compromised_at: iso(r.compromised_at),
});

/** The public halves of every key that signed, and which one signs now (migration 019). */
export function createSigningKeysRepo(store: SqlStore) {
  return {
    async list(): Promise<KeyRow[]> {
      return (await store.query('SELECT * FROM signing_keys ORDER BY created_at, kid')).map(toRow);
    },
    async get(kid: string): Promise<KeyRow | undefined> {
      const [row] = await store.query('SELECT * FROM signing_keys WHERE kid = $1', [kid]);
      return row && toRow(row);
    },
    async active(): Promise<KeyRow | undefined> {
      const [row] = await store.query("SELECT * FROM signing_keys WHERE status = 'active'");
      return row && toRow(row);
    },
    /** Makes `kid` the active key when none is (processes starting together: one wins). */
    async activateFirst(kid: string, jwk: KeyRow['public_jwk'], now: Date): Promise<void> {
      await store.query("INSERT INTO signing_keys (kid, public_jwk, status, created_at) VALUES ($1, $2, 'active', $3) ON CONFLICT DO NOTHING", [
        kid,
        JSON.stringify(jwk),
        now.toISOString(),
      ]);
    },
    /** Makes `kid` the active key and retires the one before it, in one transaction. Refuses a compromised key. */
    async rotateTo(kid: string, jwk: KeyRow['public_jwk'], now: Date): Promise<KeyRow> {
      return store.transaction(async (tx) => {
        await tx.query('LOCK TABLE signing_keys IN SHARE ROW EXCLUSIVE MODE');
        await tx.query("UPDATE signing_keys SET status = 'retired', retired_at = $1 WHERE status = 'active' AND kid <> $2", [now.toISOString(), kid]);
        const [row] = await tx.query(
          `INSERT INTO signing_keys (kid, public_jwk, status, created_at) VALUES ($1, $2, 'active', $3)
           ON CONFLICT (kid) DO UPDATE SET status = 'active', retired_at = NULL WHERE signing_keys.status <> 'compromised' RETURNING *`,
          [kid, JSON.stringify(jwk), now.toISOString()],
        );
        if (!row) throw new Error(`key ${kid} is marked compromised and cannot sign again`);
        return toRow(row);
      });
    },
    async markCompromised(kid: string, now: Date): Promise<KeyRow | undefined> {
      const [row] = await store.query(
        "UPDATE signing_keys SET status = 'compromised', compromised_at = COALESCE(compromised_at, $2) WHERE kid = $1 RETURNING *",
        [kid, now.toISOString()],
      );
      return row && toRow(row);
    },
  };
}
export type SigningKeysRepo = ReturnType<typeof createSigningKeysRepo>;
