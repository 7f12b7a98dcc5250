import type { NameMatch } from '../../domain/name-match.js';
import type { Reason, Verdict } from '../../domain/verdict.js';
import type { SqlStore } from '../../store/sql-store.js';

/** One row of the evidence log, as stored and served. */
export interface VerificationRow {
  id: string;
  account_id: string;
  key_id: string;
  created_at: string;
  keep_until: string;
  operation: 'verify' | 'batch';
  item_index: number | null;
  state: string;
  license_number: string;
  license_key: string;
  name_sent: { name?: string; first_name?: string; last_name?: string } | null;
  verified: boolean;
  verdict: Verdict;
  reasons: Reason[];
  name_match: NameMatch | null;
  licence_status: string | null;
  expiration_date: string | null;
  source_id: string | null;
  snapshot_date: string | null;
  last_verified: string | null;
  http_status: number;
  body_sha256: string;
}

export interface VerificationFilters {
  from?: Date;
  to?: Date;
  state?: string;
  license_key?: string;
  verdicts?: Verdict[];
}

/** Where a page starts: after this row in the newest-first order. */
export interface PagePosition {
  created_at: string;
  id: string;
}

const COLUMNS =
  'id uuid, account_id uuid, key_id uuid, created_at timestamptz, keep_until timestamptz, operation text, item_index integer, state text, license_number text, ' +
  'license_key text, name_sent jsonb, verified boolean, verdict text, reasons text[], name_match jsonb, licence_status text, ' +
  'expiration_date text, source_id text, snapshot_date text, last_verified text, http_status smallint, body_sha256 text';
const NAMES = COLUMNS.split(', ').map((c) => c.split(' ')[0]).join(', ');

const iso = (v: unknown) => new Date(v as string).toISOString();
const toRow = (r: Record<string, unknown>): VerificationRow => ({ ...(r as unknown as VerificationRow), created_at: iso(r.created_at), keep_until: iso(r.keep_until) });

export function createVerificationsRepo(store: SqlStore) {
  return {
    /** Writes rows in one statement: all of them are committed, or none. */
    async insert(rows: VerificationRow[]): Promise<void> {
      await store.query(`INSERT INTO verifications (${NAMES}) SELECT ${NAMES} FROM jsonb_to_recordset($1::jsonb) AS r(${COLUMNS})`, [JSON.stringify(rows)]);
    },
    /** One page of an account's rows, newest first, after `after`. */
    async page(accountId: string, f: VerificationFilters, after: PagePosition | undefined, limit: number): Promise<VerificationRow[]> {
      const where = ['account_id = $1'];
      const params: unknown[] = [accountId];
      const add = (sql: string, value: unknown) => {
        params.push(value);
        where.push(sql.replaceAll('?', `$${params.length}`));
      };
      if (f.from) add('created_at >= ?', f.from.toISOString());
      if (f.to) add('created_at < ?', f.to.toISOString());
      if (f.state) add('state = ?', f.state);
      if (f.license_key) add('license_key = ?', f.license_key);
      if (f.verdicts?.length) add('verdict = ANY(?::text[])', f.verdicts);
      if (after) {
        params.push(after.created_at, after.id);
        where.push(`(created_at, id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
      }
      params.push(limit);
      const rows = await store.query(`SELECT ${NAMES} FROM verifications WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $${params.length}`, params);
      return rows.map(toRow);
    },
    async get(accountId: string, id: string): Promise<VerificationRow | undefined> {
      const [row] = await store.query(`SELECT ${NAMES} FROM verifications WHERE account_id = $1 AND id = $2`, [accountId, id]);
      return row && toRow(row);
    },
    /** Deletes the rows kept until before `now`, a bounded number per statement; returns how many went. */
    async prune(now: Date, batch = 10_000): Promise<number> {
      let deleted = 0;
      for (;;) {
        const gone = await store.query(
          'DELETE FROM verifications WHERE id IN (SELECT id FROM verifications WHERE keep_until < $1 LIMIT $2) RETURNING 1',
          [now.toISOString(), batch],
        );
        deleted += gone.length;
        if (gone.length < batch) return deleted;
      }
    },
  };
}
export type VerificationsRepo = ReturnType<typeof createVerificationsRepo>;
