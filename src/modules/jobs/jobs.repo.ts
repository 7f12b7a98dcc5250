import type { NameQuery } from '../../domain/name-match.js';
import { VERDICTS, type Verdict } from '../../domain/verdict.js';
import type { SqlStore, SqlTx } from '../../store/sql-store.js';
import type { BatchAnswer } from '../licensees/verification.js';
import type { RosterRow } from './roster.js';

export type JobStatus = 'uploading' | 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface JobRow {
  id: string;
  account_id: string;
  key_id: string | null;
  label: string | null;
  format: 'csv' | 'json';
  status: JobStatus;
  watch: boolean;
  rows_total: number;
  rows_done: number;
  clear: number;
  consider: number;
  not_found: number;
  units: number;
  watchlist: { added: number; already_watched: number; over_limit: number; limit: number } | null;
  error_code: string | null;
  error_message: string | null;
  request_sha256: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  keep_until: string;
}

/** A chunk a worker holds: its job's row and its rows (`first` is the roster row number of items[0]). */
export interface Claim {
  job: JobRow;
  chunk: number;
  first: number;
  items: RosterRow[];
}

/** A row's answer as stored: the batch item's object without its index, and the name the row sent (null for none; absent before 2026-11-29). */
export type StoredResult = Omit<BatchAnswer, 'index'> & { name_sent?: NameQuery | null };

/** A result as stored: one roster row done. */
export interface ResultRow {
  row: number;
  verdict: Verdict;
  credential_id: string | null;
  state: string;
  license_key: string;
  verification_id: string;
  over_limit: boolean;
  result: StoredResult;
  /** As read, for a result stored without `name_sent` (before 2026-11-29): its roster row as sent, from its chunk. */
  sent?: RosterRow | null;
}

/** Whether a job is still to run (queued, or running). */
export const isActive = (status: JobStatus) => status === 'queued' || status === 'running';

/** When a job is deleted: `retentionDays` after `at`, its end (until it ends, its upload). */
export const keepUntil = (at: Date, retentionDays: number) => new Date(at.getTime() + retentionDays * 86_400_000);

/** Rows a chunk holds: one batch, one metered unit. */
export const CHUNK_ROWS = 100;
// Chunks written per statement at upload (about 600 kB of JSON).
const CHUNKS_PER_INSERT = 100;

/** A job's receipt as kept (job-receipt.ts). */
export interface KeptReceipt {
  kid: string;
  jws: string;
  signed_at: string;
}

const JOB_COLUMNS =
  'id, account_id, key_id, label, format, status, watch, rows_total, rows_done, clear, consider, not_found, units, watchlist, error_code, error_message, request_sha256, created_at, started_at, finished_at, keep_until';
type Moment = 'created_at' | 'started_at' | 'finished_at' | 'keep_until';
/** A job's row as the store returns it: its moments as Date (pg) or text. */
type JobRecord = Omit<JobRow, Moment> & Record<Moment, Date | string | null>;
const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
const job = (r: JobRecord): JobRow => ({
  ...r,
  created_at: iso(r.created_at)!,
  started_at: iso(r.started_at),
  finished_at: iso(r.finished_at),
  keep_until: iso(r.keep_until)!,
});

export function createJobsRepo(store: SqlStore) {
  /** A job's kept receipt, and whether its key has since been marked compromised. */
  async function keptReceipt(jobId: string): Promise<(KeptReceipt & { compromised: boolean }) | undefined> {
    const [row] = await store.query(
      `SELECT j.receipt_kid, j.receipt_jws, j.receipt_signed_at, k.status = 'compromised' AS compromised
       FROM verification_jobs j LEFT JOIN signing_keys k ON k.kid = j.receipt_kid WHERE j.id = $1 AND j.receipt_kid IS NOT NULL`,
      [jobId],
    );
    return row && { kid: row.receipt_kid as string, jws: row.receipt_jws as string, signed_at: iso(row.receipt_signed_at as Date | string)!, compromised: row.compromised as boolean };
  }

  return {
    transaction: <T>(fn: (tx: SqlTx) => Promise<T>) => store.transaction(fn),

    /**
     * Stores a job and its rows in chunks. The job is written first as `uploading` (neither claimed
     * nor shown), its chunks a statement at a time (so the store serves others between them), and
     * it is queued once all are in; a failure deletes it. With an idempotency key the account used
     * since `from`, stores nothing and returns that job (`uploading`: another upload with the key
     * is still writing; one left behind by a crash for ten minutes is replaced).
     */
    async create(j: JobRow, rows: RosterRow[], idempotency: { key: string; from: Date } | undefined): Promise<{ job: JobRow; created: boolean }> {
      const existing = await store.transaction(async (tx) => {
        if (idempotency) {
          // A key older than its 24 hours is free again, and so is one whose upload died.
          await tx.query('UPDATE verification_jobs SET idempotency_key = NULL WHERE account_id = $1 AND idempotency_key = $2 AND created_at < $3', [j.account_id, idempotency.key, idempotency.from]);
          await tx.query("DELETE FROM verification_jobs WHERE account_id = $1 AND idempotency_key = $2 AND status = 'uploading' AND created_at < $3", [j.account_id, idempotency.key, new Date(Date.parse(j.created_at) - 600_000)]);
        }
        const [row] = await tx.query(
          `INSERT INTO verification_jobs (id, account_id, key_id, label, format, status, watch, rows_total, idempotency_key, request_sha256, created_at, keep_until)
           VALUES ($1, $2, $3, $4, $5, 'uploading', $6, $7, $8, $9, $10, $11)
           ON CONFLICT (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING id`,
          [j.id, j.account_id, j.key_id, j.label, j.format, j.watch, j.rows_total, idempotency?.key ?? null, j.request_sha256, j.created_at, j.keep_until],
        );
        if (row) return undefined;
        const [other] = await tx.query<JobRecord>(`SELECT ${JOB_COLUMNS} FROM verification_jobs WHERE account_id = $1 AND idempotency_key = $2`, [j.account_id, idempotency!.key]);
        return job(other);
      });
      if (existing) return { job: existing, created: false };
      try {
        for (let c = 0; c * CHUNK_ROWS < rows.length; c += CHUNKS_PER_INSERT) {
          const chunks = [];
          for (let k = c; k < c + CHUNKS_PER_INSERT && k * CHUNK_ROWS < rows.length; k++) chunks.push({ chunk: k, items: rows.slice(k * CHUNK_ROWS, (k + 1) * CHUNK_ROWS) });
          await store.query(
            'INSERT INTO verification_job_chunks (job_id, chunk, items) SELECT $1, r.chunk, r.items FROM jsonb_to_recordset($2::jsonb) AS r(chunk integer, items jsonb)',
            [j.id, JSON.stringify(chunks)],
          );
        }
        const [row] = await store.query<JobRecord>(`UPDATE verification_jobs SET status = 'queued' WHERE id = $1 RETURNING ${JOB_COLUMNS}`, [j.id]);
        return { job: job(row), created: true };
      } catch (err) {
        await store.query('DELETE FROM verification_jobs WHERE id = $1', [j.id]).catch(() => undefined);
        throw err;
      }
    },

    async get(accountId: string, id: string): Promise<JobRow | undefined> {
      const [row] = await store.query<JobRecord>(`SELECT ${JOB_COLUMNS} FROM verification_jobs WHERE account_id = $1 AND id = $2 AND status <> 'uploading'`, [accountId, id]);
      return row ? job(row) : undefined;
    },

    /** The account's jobs, newest first, after `after` (the last job of the previous page). */
    async page(accountId: string, after: { created_at: string; id: string } | undefined, limit: number): Promise<JobRow[]> {
      const rows = await store.query<JobRecord>(
        `SELECT ${JOB_COLUMNS} FROM verification_jobs WHERE account_id = $1 AND status <> 'uploading' AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
         ORDER BY created_at DESC, id DESC LIMIT $4`,
        [accountId, after?.created_at ?? null, after?.id ?? null, limit],
      );
      return rows.map(job);
    },

    /** Cancels a job that has not finished; the job as it is after (undefined: no such job). */
    async cancel(accountId: string, id: string, at: Date, keepUntil: Date): Promise<{ job: JobRow; cancelled: boolean } | undefined> {
      const [row] = await store.query<JobRecord>(
        `UPDATE verification_jobs SET status = 'cancelled', finished_at = $3, keep_until = $4, error_code = 'cancelled', error_message = 'cancelled by the account'
         WHERE account_id = $1 AND id = $2 AND status IN ('queued', 'running') RETURNING ${JOB_COLUMNS}`,
        [accountId, id, at, keepUntil],
      );
      if (row) return { job: job(row), cancelled: true };
      const existing = await this.get(accountId, id);
      return existing && { job: existing, cancelled: false };
    },

    /**
     * Leases the next chunk to do, or undefined. Fair across accounts: the account whose jobs were
     * served least recently goes first (its oldest job, lowest chunk); each claim stamps the
     * account's active jobs as served. Chunks another worker holds are skipped, not waited for.
     */
    async claim(owner: string, at: Date, leaseUntil: Date): Promise<Claim | undefined> {
      return store.transaction(async (tx) => {
        const [c] = await tx.query<{ job_id: string; chunk: number; items: RosterRow[] }>(
          `SELECT c.job_id, c.chunk, c.items FROM
             (SELECT id FROM verification_jobs WHERE status IN ('queued', 'running') ORDER BY served_at NULLS FIRST, created_at LIMIT 50) j
           CROSS JOIN LATERAL (
             SELECT job_id, chunk, items FROM verification_job_chunks c
             WHERE c.job_id = j.id AND c.done_at IS NULL AND (c.lease_until IS NULL OR c.lease_until < $1)
             ORDER BY chunk LIMIT 1 FOR UPDATE SKIP LOCKED) c
           LIMIT 1`,
          [at],
        );
        if (!c) return undefined;
        await tx.query('UPDATE verification_job_chunks SET lease_owner = $3, lease_until = $4 WHERE job_id = $1 AND chunk = $2', [c.job_id, c.chunk, owner, leaseUntil]);
        const [row] = await tx.query<JobRecord>(
          // A job cancelled meanwhile stays cancelled: its chunk will not be kept.
          `UPDATE verification_jobs SET status = CASE WHEN status = 'queued' THEN 'running' ELSE status END, started_at = coalesce(started_at, $2) WHERE id = $1 RETURNING ${JOB_COLUMNS}`,
          [c.job_id, at],
        );
        await tx.query("UPDATE verification_jobs SET served_at = $2 WHERE account_id = $1 AND status IN ('queued', 'running')", [row.account_id, at]);
        return { job: job(row), chunk: c.chunk, first: c.chunk * CHUNK_ROWS + 1, items: c.items };
      });
    },

    /** Gives a chunk back at once (its worker could not do it now). */
    async release(jobId: string, chunk: number, owner: string) {
      await store.query('UPDATE verification_job_chunks SET lease_owner = NULL, lease_until = NULL WHERE job_id = $1 AND chunk = $2 AND lease_owner = $3', [jobId, chunk, owner]);
    },

    /** Every lease, whoever holds it: at the start of the only process an embedded store allows. */
    async releaseAll() {
      await store.query('UPDATE verification_job_chunks SET lease_owner = NULL, lease_until = NULL WHERE lease_owner IS NOT NULL AND done_at IS NULL');
    },

    /** Whether a chunk of the job other than `chunk` is held by a worker now. */
    async inFlight(tx: SqlTx, jobId: string, chunk: number, at: Date): Promise<boolean> {
      const rows = await tx.query('SELECT 1 FROM verification_job_chunks WHERE job_id = $1 AND chunk <> $2 AND done_at IS NULL AND lease_until >= $3 LIMIT 1', [jobId, chunk, at]);
      return rows.length > 0;
    },

    /** Locks a job for the rest of `tx` and reads it. */
    async lock(tx: SqlTx, id: string): Promise<JobRow> {
      const [row] = await tx.query<JobRecord>(`SELECT ${JOB_COLUMNS} FROM verification_jobs WHERE id = $1 FOR UPDATE`, [id]);
      return job(row);
    },

    /** Marks a chunk done if `owner` still holds it; false when the lease was lost (another worker has it). */
    async markDone(tx: SqlTx, jobId: string, chunk: number, owner: string, at: Date): Promise<boolean> {
      const rows = await tx.query(
        'UPDATE verification_job_chunks SET done_at = $4, done_by = $3, lease_owner = NULL, lease_until = NULL WHERE job_id = $1 AND chunk = $2 AND lease_owner = $3 AND done_at IS NULL RETURNING chunk',
        [jobId, chunk, owner, at],
      );
      return rows.length > 0;
    },

    async insertResults(tx: SqlTx, jobId: string, results: ResultRow[]) {
      await tx.query(
        `INSERT INTO verification_job_results (job_id, row, verdict, credential_id, state, license_key, verification_id, result)
         SELECT $1, r.row, r.verdict, r.credential_id, r.state, r.license_key, r.verification_id, r.result
         FROM jsonb_to_recordset($2::jsonb) AS r(row integer, verdict text, credential_id text, state text, license_key text, verification_id uuid, result jsonb)`,
        [jobId, JSON.stringify(results)],
      );
    },

    /** Adds a chunk's counts to its job; the job after. */
    async count(tx: SqlTx, jobId: string, n: Record<Verdict, number>): Promise<JobRow> {
      const [row] = await tx.query<JobRecord>(
        `UPDATE verification_jobs SET rows_done = rows_done + $2 + $3 + $4, clear = clear + $2, consider = consider + $3, not_found = not_found + $4, units = units + 1
         WHERE id = $1 RETURNING ${JOB_COLUMNS}`,
        [jobId, n.clear, n.consider, n.not_found],
      );
      return job(row);
    },

    /** A job stops: completed or failed (why, in `error`), its results kept until `keepUntil`. */
    async finish(tx: SqlTx, jobId: string, status: 'completed' | 'failed', at: Date, keepUntil: Date, error?: { code: string; message: string }): Promise<JobRow> {
      const [row] = await tx.query<JobRecord>(
        `UPDATE verification_jobs SET status = $2, finished_at = $3, keep_until = $4, error_code = $5, error_message = $6 WHERE id = $1 RETURNING ${JOB_COLUMNS}`,
        [jobId, status, at, keepUntil, error?.code ?? null, error?.message ?? null],
      );
      return job(row);
    },

    /** The licences a job found, each once (with its state and canonical number), in the order of their first row. */
    async foundLicences(tx: SqlTx, jobId: string): Promise<{ credential_id: string; state: string; license_number: string }[]> {
      return tx.query(
        `SELECT credential_id, min(state) AS state, min(license_key) AS license_number FROM verification_job_results
         WHERE job_id = $1 AND credential_id IS NOT NULL GROUP BY credential_id ORDER BY min(row)`,
        [jobId],
      );
    },

    /** Marks the job's rows of these licences as left off the full watchlist; how many rows. */
    async markOverLimit(tx: SqlTx, jobId: string, credentialIds: string[]): Promise<number> {
      const rows = await tx.query('UPDATE verification_job_results SET over_limit = true WHERE job_id = $1 AND credential_id = ANY($2::text[]) RETURNING row', [jobId, credentialIds]);
      return rows.length;
    },

    /** Keeps what the job's watch pass did. */
    async setWatchlist(tx: SqlTx, jobId: string, summary: NonNullable<JobRow['watchlist']>) {
      await tx.query('UPDATE verification_jobs SET watchlist = $2 WHERE id = $1', [jobId, JSON.stringify(summary)]);
    },

    /**
     * A page of a job's results in roster order after row `after`, of the `verdicts` given (all
     * when absent). One verdict walks (job_id, verdict, row); two walk the job's rows skipping the
     * third, so a page reads about a page either way.
     */
    async results(jobId: string, f: { verdicts?: Verdict[]; overLimit?: boolean }, after: number, limit: number): Promise<ResultRow[]> {
      const wanted = new Set(f.verdicts ?? VERDICTS);
      const left = VERDICTS.filter((v) => !wanted.has(v));
      const [op, verdict] = wanted.size === 1 ? ['=', [...wanted][0]] : left.length === 1 ? ['<>', left[0]] : ['<>', ''];
      // A result stored before it kept `name_sent` reads its row from its chunk (never one stored since).
      return store.query<ResultRow>(
        `SELECT row, verdict, credential_id, state, license_key, verification_id, over_limit, result,
           CASE WHEN result->'name_sent' IS NULL THEN
             (SELECT c.items->((r.row - 1) % ${CHUNK_ROWS}) FROM verification_job_chunks c WHERE c.job_id = r.job_id AND c.chunk = (r.row - 1) / ${CHUNK_ROWS}) END AS sent
         FROM verification_job_results r
         WHERE job_id = $1 AND row > $2 AND verdict ${op} $3 AND ($4::boolean IS NULL OR over_limit = $4)
         ORDER BY row LIMIT $5`,
        [jobId, after, verdict, f.overLimit ?? null, limit],
      );
    },

    /**
     * What a job's receipt digests of up to `limit` results after row `after`: their lines as
     * docs/verdicts.md gives them (row, record id, verdict, reasons), in roster order, made in the store as one text, with their
     * count and last row: read out as a row object each, they cost PGlite a sixth more.
     */
    async resultLines(jobId: string, after: number, limit: number): Promise<{ rows: number; last: number; text: string }> {
      const [page] = await store.query<{ rows: number; last: number; text: string }>(
        `SELECT count(*)::int AS rows, COALESCE(max(row), 0)::int AS last, COALESCE(string_agg(row || ' ' || verification_id || ' ' || verdict || ' ' ||
           COALESCE((SELECT string_agg(x, ',' ORDER BY n) FROM jsonb_array_elements_text(result->'reasons') WITH ORDINALITY AS e(x, n)), '') || E'\n', '' ORDER BY row), '') AS text
         FROM (SELECT row, verification_id, verdict, result FROM verification_job_results WHERE job_id = $1 AND row > $2 ORDER BY row LIMIT $3) p`,
        [jobId, after, limit],
      );
      return page;
    },

    receipt: keptReceipt,

    /** Keeps a job's receipt unless another was kept first (`replacing`: the kid of one it may replace); the receipt kept. */
    async keepReceipt(jobId: string, r: KeptReceipt, replacing?: string): Promise<KeptReceipt> {
      const [written] = await store.query(
        'UPDATE verification_jobs SET receipt_kid = $2, receipt_jws = $3, receipt_signed_at = $4 WHERE id = $1 AND receipt_kid IS NOT DISTINCT FROM $5 RETURNING id',
        [jobId, r.kid, r.jws, r.signed_at, replacing ?? null],
      );
      if (written) return r;
      const kept = await keptReceipt(jobId);
      if (!kept) throw new Error(`job ${jobId} has no receipt after another was kept`);
      return { kid: kept.kid, jws: kept.jws, signed_at: kept.signed_at };
    },

    /** Drops finished jobs (their chunks and results with them) past the time they are kept, and uploads a crash left an hour ago. */
    async prune(at: Date): Promise<number> {
      const rows = await store.query(
        "DELETE FROM verification_jobs WHERE (keep_until < $1 AND status NOT IN ('uploading', 'queued', 'running')) OR (status = 'uploading' AND created_at < $2) RETURNING id",
        [at, new Date(at.getTime() - 3600_000)],
      );
      return rows.length;
    },
  };
}
export type JobsRepo = ReturnType<typeof createJobsRepo>;
