import { createHash, randomUUID } from 'node:crypto';
import type { Clock } from '../../domain/clock.js';
import { effectivePlan } from '../../domain/plans.js';
import type { Verdict } from '../../domain/verdict.js';
import { ConflictError, NotFoundError, PaymentRequiredError, ValidationError } from '../../errors.js';
import { cursorCodec, isCursorMoment } from '../../http/cursor.js';
import type { Account } from '../accounts/account.js';
import type { JobReceipts } from './job-receipt.js';
import { keepUntil, type JobRow, type JobsRepo } from './jobs.repo.js';
import { jobView, resultView, shown, type JobResult, type JobView } from './jobs.views.js';
import type { RosterRow } from './roster.js';

/** What the jobs' requests need: the jobs' store, the clock, and who runs what is queued. */
export interface JobsServiceDeps {
  repo: JobsRepo;
  clock: Clock;
  /** A job was queued: the runner may take it now (jobs.runner.ts `wake`). */
  queued: () => void;
  /** A finished job's receipt (kept, or signed when first asked for). */
  receipts: JobReceipts;
}

export interface ResultsQuery {
  verdicts?: Verdict[];
  /** Only the found rows the full watchlist left out. */
  over_limit?: boolean;
  cursor?: string;
  per_page: number;
}

/** An upload's choices. `id`: the demo job's fixed one (start-up.ts); otherwise a random UUID. */
export interface NewJob {
  watch: boolean;
  label: string | null;
  format: 'csv' | 'json';
  request: string;
  idempotencyKey?: string;
  id?: string;
}

/** The account's jobs page after its last job: `<created_at>|<id>`. */
const jobCursors = cursorCodec<{ created_at: string; id: string }>(
  (j) => `${j.created_at}|${j.id}`,
  (text) => {
    const [createdAt, id, ...rest] = text.split('|');
    return !rest.length && isCursorMoment(createdAt) && /^[0-9a-f-]{36}$/.test(id ?? '') ? { created_at: createdAt, id } : undefined;
  },
);
/** A results page after its last row: `r<row>`. */
const rowCursors = cursorCodec<number>(
  (row) => `r${row}`,
  (text) => (/^r\d{1,6}$/.test(text) ? Number(text.slice(1)) : undefined),
);

/** A queued job's row, before the roster is stored. */
function newJobRow(caller: { account: Account; keyId: string | null }, rows: number, o: NewJob, sha: string, at: Date, retentionDays: number): JobRow {
  return {
    id: o.id ?? randomUUID(),
    account_id: caller.account.id,
    key_id: caller.keyId,
    label: o.label,
    format: o.format,
    status: 'queued',
    watch: o.watch,
    rows_total: rows,
    rows_done: 0,
    clear: 0,
    consider: 0,
    not_found: 0,
    units: 0,
    watchlist: null,
    error_code: null,
    error_message: null,
    request_sha256: sha,
    created_at: at.toISOString(),
    started_at: null,
    finished_at: null,
    // Until it finishes; then the retention counts from its end.
    keep_until: keepUntil(at, retentionDays).toISOString(),
  };
}

/** The job an upload with an Idempotency-Key met instead of storing its own: the same roster, or a 409 or 422. */
function replayed(job: JobRow, sha: string, key: string | undefined): JobRow {
  if (job.status === 'uploading') throw new ConflictError('an upload with this Idempotency-Key is still being stored: retry in a few seconds');
  if (job.request_sha256 !== sha) {
    throw new ValidationError([{ loc: ['header', 'Idempotency-Key'], msg: 'was used in the last 24 hours for another roster: send a new key for a new roster', type: 'idempotency_key_reused', input: key }]);
  }
  return job;
}

/** A page of rows and whether a next page follows (`limit` + 1 were asked for). */
const pageOf = <T>(rows: T[], limit: number) => ({ page: rows.slice(0, limit), more: rows.length > limit });

/** Roster verification jobs as their account sees them: uploads, progress, results, cancels. The runner (jobs.runner.ts) does the work. */
export function createJobsService(deps: JobsServiceDeps, options: { retentionDays: number }) {
  const { repo, clock } = deps;
  async function owned(accountId: string, id: string): Promise<JobRow> {
    const j = await repo.get(accountId, id);
    if (!j) throw new NotFoundError(`no verification job ${id} in this account`);
    return j;
  }
  /** Refuses (402) an account whose plan in force has no roster jobs: before its roster is read. */
  const checkPlan = (account: Account) => {
    const plan = effectivePlan(account, clock.now());
    if (!plan.batch) throw new PaymentRequiredError(`the ${plan.name} plan does not include roster verification jobs: upgrade to starter, growth or enterprise`);
  };
  /** Every result matching `q` in roster order, read a page at a time (an export's memory is a page). */
  async function* allResults(accountId: string, id: string, q: Omit<ResultsQuery, 'cursor' | 'per_page'>, pageSize = 1_000): AsyncGenerator<JobResult> {
    const j = await owned(accountId, id);
    for (let after = 0; ; ) {
      const rows = await repo.results(j.id, { verdicts: q.verdicts, overLimit: q.over_limit }, after, pageSize);
      for (const r of rows) yield resultView(j, r);
      if (rows.length < pageSize) return;
      after = rows[rows.length - 1].row;
    }
  }

  return {
    checkPlan,
    /**
     * Queues a roster (checked already). A retry with the same `Idempotency-Key` (24 hours, per
     * account) gets the same job; the key with another roster is a 422.
     */
    async create(caller: { account: Account; keyId: string | null }, roster: RosterRow[], o: NewJob): Promise<{ job: JobView; replayed: boolean }> {
      const at = clock.now();
      checkPlan(caller.account);
      const sha = createHash('sha256').update(`${o.format}|${o.watch}|${o.label ?? ''}|`).update(o.request).digest('hex');
      const idem = o.idempotencyKey ? { key: o.idempotencyKey, from: new Date(at.getTime() - 24 * 3600_000) } : undefined;
      const { job, created } = await repo.create(newJobRow(caller, roster.length, o, sha, at, options.retentionDays), roster, idem);
      if (!created) return { job: jobView(replayed(job, sha, o.idempotencyKey)), replayed: true };
      deps.queued();
      return { job: jobView(job), replayed: false };
    },
    get: async (accountId: string, id: string): Promise<JobView> => jobView(await owned(accountId, id)),
    async list(accountId: string, q: { cursor?: string; per_page: number }) {
      const { page, more } = pageOf(await repo.page(accountId, q.cursor ? jobCursors.decode(q.cursor) : undefined, q.per_page + 1), q.per_page);
      return { data: page.map(jobView), meta: { per_page: q.per_page, next_cursor: more ? jobCursors.encode(page[page.length - 1]) : null } };
    },
    /** A page of a job's results in roster order; `total` counts every result the filters match so far. */
    async results(accountId: string, id: string, q: ResultsQuery) {
      const j = await owned(accountId, id);
      const rows = await repo.results(j.id, { verdicts: q.verdicts, overLimit: q.over_limit }, q.cursor ? rowCursors.decode(q.cursor) : 0, q.per_page + 1);
      const { page, more } = pageOf(rows, q.per_page);
      const total = q.over_limit ? (j.watchlist?.over_limit ?? 0) : (q.verdicts ?? ['clear', 'consider', 'not_found']).reduce((n, v) => n + j[v], 0);
      const next = more ? rowCursors.encode(page[page.length - 1].row) : null;
      return { data: page.map((r) => resultView(j, r)), meta: { per_page: q.per_page, total, job_status: shown(j.status), next_cursor: next } };
    },
    allResults,
    /** A finished job's receipt, over the job and its results' lines (job-receipt.ts); 409 while it runs. */
    receipt: async (accountId: string, id: string) => deps.receipts.of(await owned(accountId, id)),
    /** A finished job's summary: the job, its receipt, and its results in roster order (read a page at a time). */
    async summary(accountId: string, id: string) {
      const j = await owned(accountId, id);
      return { job: jobView(j), receipt: await deps.receipts.of(j), results: () => allResults(accountId, id, {}) };
    },
    /** Cancels a job that has not finished: rows done stay, the rest are not verified (nor charged). 409 once it finished. */
    async cancel(accountId: string, id: string): Promise<JobView> {
      const at = clock.now();
      const out = await repo.cancel(accountId, id, at, keepUntil(at, options.retentionDays));
      if (!out) throw new NotFoundError(`no verification job ${id} in this account`);
      if (!out.cancelled) throw new ConflictError(`verification job ${id} is ${out.job.status}: only a queued or running job can be cancelled`);
      return jobView(out.job);
    },
    /** Days a finished job and its results are kept. */
    retentionDays: options.retentionDays,
    /** Drops finished jobs past their retention. */
    prune: () => repo.prune(clock.now()),
  };
}
export type JobsService = ReturnType<typeof createJobsService>;
