import type { NameMatch } from '../../domain/name-match.js';
import type { Reason, Verdict } from '../../domain/verdict.js';
import type { SqlStore, SqlTx } from '../../store/sql-store.js';

/** One licence a call answered, as stored in its call's `items` (keys in migration 012). */
export interface StoredItem {
  i?: number;
  s: string;
  n: string;
  k: string;
  a?: { name?: string; first_name?: string; last_name?: string };
  v: boolean;
  d: Verdict;
  r: Reason[];
  m?: NameMatch;
  st?: string;
  ex?: string;
  src?: string;
  sd?: string;
  lv?: string;
  /** The name matcher's version (domain/name-match.ts) when a name was matched. */
  mv?: string;
}

/** What a record answered: a verify call, a batch call, or a chunk of a roster job. */
export type Operation = 'verify' | 'batch' | 'job';

/** One verify or batch call (or a job's chunk) as stored: its items in request order. */
export interface CallRow {
  id: string;
  account_id: string;
  /** Null for a job uploaded in the dashboard. */
  key_id: string | null;
  created_at: string;
  keep_until: string;
  operation: Operation;
  http_status: number;
  body_sha256: string;
  tags: string[];
  items: StoredItem[];
}

/** One record as read: an item, at its position in its call, with the call's fields. */
export interface RecordRow {
  call_id: string;
  position: number;
  key_id: string | null;
  created_at: string;
  operation: Operation;
  http_status: number;
  body_sha256: string;
  item: StoredItem;
  /** The record's reviews, oldest first. */
  reviews: ReviewRow[];
}

export type ReviewDecision = 'accepted' | 'rejected' | 'escalated';

/** Who decided: the dashboard's signed-in user, or an API key with the name its caller gave. */
export type Reviewer = { type: 'dashboard_user'; email: string } | { type: 'api_key'; key_id: string; name: string | null };

/** A person's decision about a record, with the receipt signed for it (migration 019). */
export interface ReviewRow {
  id: string;
  decision: ReviewDecision;
  reason: string;
  reviewer: Reviewer;
  created_at: string;
  kid: string;
  jws: string;
}

export interface ReceiptRow {
  kid: string;
  jws: string;
  signed_at: string;
}

export interface VerificationFilters {
  from?: Date;
  to?: Date;
  state?: string;
  license_key?: string;
  verdicts?: Verdict[];
  /** Only records with a review (true) or without one (false). */
  reviewed?: boolean;
}

/** Where a page starts: after this item in the newest-first order (newest call first, then its last item first). */
export interface PagePosition {
  created_at: string;
  call_id: string;
  position: number;
}

/** What a call's items are looked up by (migration 012). */
export const callTags = (items: StoredItem[]) => [...new Set(items.flatMap((it) => [`L:${it.k}`, `S:${it.s}`, `V:${it.d}`]))];

// Record ids (migration 012): a call's id is a UUIDv7 with the low 7 bits of its last byte zero,
// and its item n's id has n there; a call moved from 011 has one item, whose id is the call's.
const lastByte = (id: string) => parseInt(id.slice(-2), 16);
const withLastByte = (id: string, byte: number) => id.slice(0, -2) + byte.toString(16).padStart(2, '0');

/** A call's id made from a fresh UUIDv7. */
export const callIdOf = (uuid: string) => withLastByte(uuid, lastByte(uuid) & 0x80);

/** A record's id: its call's with its position in the low bits. */
export const itemId = (callId: string, position: number) => withLastByte(callId, lastByte(callId) | position);

/** The calls a record id can belong to: its own (a call moved from 011, position 0) or the one its low bits name. */
const callsOf = (id: string): [string, [string, number]] => [id, [callIdOf(id), lastByte(id) & 0x7f]];

const COLUMNS =
  'id uuid, account_id uuid, key_id uuid, created_at timestamptz, keep_until timestamptz, operation text, http_status smallint, body_sha256 text, tags text[], items jsonb';
const NAMES = COLUMNS.split(', ').map((c) => c.split(' ')[0]).join(', ');
const REVIEWS = `(SELECT COALESCE(jsonb_agg(jsonb_build_object('id', v.id, 'decision', v.decision, 'reason', v.reason, 'reviewer', v.reviewer,
  'created_at', v.created_at, 'kid', v.kid, 'jws', v.jws) ORDER BY v.created_at, v.id), '[]'::jsonb)
  FROM verification_reviews v WHERE v.call_id = c.id AND v.position = e.n - 1) AS reviews`;
const RECORD = `c.id AS call_id, (e.n - 1)::int AS position, c.key_id, c.created_at, c.operation, c.http_status, c.body_sha256, e.item, ${REVIEWS}`;
const UNREVIEWED = 'NOT EXISTS (SELECT 1 FROM verification_reviews v WHERE v.call_id = c.id AND v.position = e.n - 1)';
const ITEMS = 'verification_calls c CROSS JOIN LATERAL jsonb_array_elements(c.items) WITH ORDINALITY AS e(item, n)';

const iso = (v: unknown) => new Date(v as string).toISOString();
const toRecord = (r: Record<string, unknown>): RecordRow => ({
  ...(r as unknown as RecordRow),
  created_at: iso(r.created_at),
  reviews: (r.reviews as ReviewRow[]).map((v) => ({ ...v, created_at: iso(v.created_at) })),
});

export function createVerificationsRepo(store: SqlStore) {
  /** A record and, with `receipt`, the receipt kept for it (with whether its key was marked compromised since), in one read. */
  async function getWithReceipt(accountId: string, id: string, receipt = true): Promise<[RecordRow | undefined, (ReceiptRow & { compromised: boolean }) | undefined]> {
    const [own, [call, position]] = callsOf(id);
    const from = receipt
      ? `, r.kid AS receipt_kid, r.jws AS receipt_jws, r.signed_at AS receipt_signed_at, k.status = 'compromised' AS receipt_compromised
         FROM ${ITEMS} LEFT JOIN verification_receipts r ON r.call_id = c.id AND r.position = e.n - 1 LEFT JOIN signing_keys k ON k.kid = r.kid`
      : ` FROM ${ITEMS}`;
    const [row] = await store.query(
      `SELECT ${RECORD}${from} WHERE c.account_id = $1 AND ((c.id = $2::uuid AND e.n = 1) OR (c.id = $3::uuid AND e.n = $4::int + 1)) LIMIT 1`,
      [accountId, own, call, position],
    );
    if (!row) return [undefined, undefined];
    const kept = row.receipt_kid
      ? { kid: row.receipt_kid as string, jws: row.receipt_jws as string, signed_at: iso(row.receipt_signed_at), compromised: row.receipt_compromised as boolean }
      : undefined;
    return [toRecord(row), kept];
  }
  return {
    /**
     * Writes calls, given as a JSON array of CallRow, in one statement: all of them are committed,
     * or none (in `tx` when given). A call already there (by id) is left as it is.
     */
    async insertJson(calls: string, tx: SqlTx = store): Promise<void> {
      await tx.query(`INSERT INTO verification_calls (${NAMES}) SELECT ${NAMES} FROM jsonb_to_recordset($1::jsonb) AS r(${COLUMNS}) ON CONFLICT (id) DO NOTHING`, [calls]);
    },
    /** One page of an account's records, newest first (or oldest first), after `after`. */
    async page(accountId: string, f: VerificationFilters, after: PagePosition | undefined, limit: number, order: 'newest' | 'oldest' = 'newest'): Promise<RecordRow[]> {
      const where = ['c.account_id = $1'];
      const params: unknown[] = [accountId];
      const add = (sql: string, ...values: unknown[]) => {
        where.push(sql.replace(/\?/g, () => `$${params.push(values.shift())}`));
      };
      if (f.from) add('c.created_at >= ?', f.from.toISOString());
      if (f.to) add('c.created_at < ?', f.to.toISOString());
      // The call's tags narrow the calls (by index where the tag is rare); the item's own field decides.
      if (f.state) add("c.tags @> ARRAY[?::text] AND e.item->>'s' = ?", `S:${f.state}`, f.state);
      if (f.license_key) add("c.tags @> ARRAY[?::text] AND e.item->>'k' = ?", `L:${f.license_key}`, f.license_key);
      if (f.verdicts?.length) add("c.tags && ?::text[] AND e.item->>'d' = ANY(?::text[])", f.verdicts.map((v) => `V:${v}`), f.verdicts);
      if (f.reviewed !== undefined) add(f.reviewed ? `NOT ${UNREVIEWED}` : UNREVIEWED);
      const [le, lt, dir] = order === 'newest' ? ['<=', '<', 'DESC'] : ['>=', '>', 'ASC'];
      if (after) {
        add(`(c.created_at, c.id) ${le} (?::timestamptz, ?::uuid)`, after.created_at, after.call_id);
        add(`(c.created_at, c.id, e.n) ${lt} (?::timestamptz, ?::uuid, ?::bigint + 1)`, after.created_at, after.call_id, after.position);
      }
      params.push(limit);
      const rows = await store.query(
        `SELECT ${RECORD} FROM ${ITEMS} WHERE ${where.join(' AND ')} ORDER BY c.created_at ${dir}, c.id ${dir}, e.n ${dir} LIMIT $${params.length}`,
        params,
      );
      return rows.map(toRecord);
    },
    async get(accountId: string, id: string): Promise<RecordRow | undefined> {
      return (await getWithReceipt(accountId, id, false))[0];
    },
    getWithReceipt,
    /**
     * Keeps a record's receipt: the first one signed wins (concurrent first asks), unless `replacing`
     * names the kid of the one there, which it then replaces. Returns the receipt kept.
     */
    async keepReceipt(callId: string, position: number, r: ReceiptRow, replacing?: string): Promise<ReceiptRow> {
      const [written] = await store.query(
        `INSERT INTO verification_receipts (call_id, position, kid, jws, signed_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (call_id, position) DO UPDATE SET kid = EXCLUDED.kid, jws = EXCLUDED.jws, signed_at = EXCLUDED.signed_at
         WHERE verification_receipts.kid = $6 RETURNING kid`,
        [callId, position, r.kid, r.jws, r.signed_at, replacing ?? null],
      );
      if (written) return r;
      const [kept] = await store.query('SELECT kid, jws, signed_at FROM verification_receipts WHERE call_id = $1 AND position = $2', [callId, position]);
      return { kid: kept.kid as string, jws: kept.jws as string, signed_at: iso(kept.signed_at) };
    },
    async insertReview(callId: string, position: number, accountId: string, v: ReviewRow): Promise<void> {
      await store.query(
        `INSERT INTO verification_reviews (id, call_id, position, account_id, decision, reason, reviewer, created_at, kid, jws)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [v.id, callId, position, accountId, v.decision, v.reason, JSON.stringify(v.reviewer), v.created_at, v.kid, v.jws],
      );
    },
    /** Deletes the calls kept until before `now`, a bounded number per statement; returns how many records went. */
    async prune(now: Date, batch = 10_000): Promise<number> {
      let deleted = 0;
      for (;;) {
        const gone = await store.query<{ n: number }>(
          'DELETE FROM verification_calls WHERE id IN (SELECT id FROM verification_calls WHERE keep_until < $1 LIMIT $2) RETURNING jsonb_array_length(items) AS n',
          [now.toISOString(), batch],
        );
        deleted += gone.reduce((sum, r) => sum + Number(r.n), 0);
        if (gone.length < batch) return deleted;
      }
    },
    /**
     * What autovacuum does on PostgreSQL and PGlite never runs: the statistics that choose between the
     * tags' index and a walk newest first, and the tags' pending entries merged (every lookup reads them).
     */
    async maintain(): Promise<void> {
      await store.query("SELECT gin_clean_pending_list('verification_calls_tags')");
      await store.query('ANALYZE verification_calls');
    },
  };
}
export type VerificationsRepo = ReturnType<typeof createVerificationsRepo>;
