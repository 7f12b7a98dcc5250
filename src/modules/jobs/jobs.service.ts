import { createHash, randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Clock } from '../../domain/clock.js';
import { canonicalLicenseNumber, credentialId } from '../../domain/identity.js';
import { effectivePlan } from '../../domain/plans.js';
import type { Verdict } from '../../domain/verdict.js';
import type { JobEventType } from '../../domain/webhook-events.js';
import { AppError, ConflictError, GraphError, NotFoundError, PaymentRequiredError, QuotaExceededError, ValidationError } from '../../errors.js';
import { cursorCodec, isCursorMoment } from '../../http/cursor.js';
import type { SqlTx } from '../../store/sql-store.js';
import type { AccountRow } from '../accounts/accounts.repo.js';
import type { Meter } from '../accounts/metering.js';
import type { NameQuery } from '../../domain/name-match.js';
import type { LicenseesService } from '../licensees/licensees.service.js';
import { nameSent } from '../licensees/verification.js';
import { itemId, type VerificationsRepo } from '../verifications/verifications.repo.js';
import { callOf } from '../verifications/verifications.service.js';
import type { WebhooksRepo } from '../webhooks/webhooks.repo.js';
import { type Claim, type JobRow, type JobsRepo, type ResultRow } from './jobs.repo.js';
import type { RosterRow } from './roster.js';

export interface JobsOptions {
  /** Chunks (batches of 100) verified at once by this process: the graph queries jobs may hold. */
  concurrency: number;
  /** How long a worker holds a chunk before another may take it (a crashed worker's, say). */
  leaseMs: number;
  /** Days a finished job and its results are kept. */
  retentionDays: number;
  /** Only one process can open the store (PGlite): leases left by a previous run are taken back at start. */
  soleProcess: boolean;
}

/** What jobs need of the side store and the rest of the service. */
export interface JobsDeps {
  repo: JobsRepo;
  evidence: Pick<VerificationsRepo, 'insertJson'>;
  events: Pick<WebhooksRepo, 'fanOutEvent'>;
  /** Webhook deliveries were stored: send them now. */
  nudgeWebhooks: () => void;
  accountById: (id: string) => Promise<AccountRow | undefined>;
  licensees: Pick<LicenseesService, 'batch'>;
  meter: Pick<Meter, 'admit' | 'settle'>;
  clock: Clock;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Callers' lookups are coming in (began within the last second): jobs yield to them. */
  lookupsComing?: () => boolean;
}

/** The operation a job's units are counted under in the account's usage. */
export const JOB_OPERATION = 'verificationJob';
// A chunk that fails this many times in a row (not for want of the graph) fails its job.
const MAX_CHUNK_FAILURES = 5;
const ACTIVE = new Set(['queued', 'running']);
/** Why a job stopped short (the `error` of a failed or cancelled job). */
export type JobErrorCode = 'quota_exhausted' | 'plan_lacks_batch' | 'internal_error' | 'cancelled';

const links = (id: string) => ({ self: `/api/v1/verification-jobs/${id}`, results: `/api/v1/verification-jobs/${id}/results`, results_csv: `/api/v1/verification-jobs/${id}/results.csv` });

// An uploading job is never read out (jobs.repo.ts).
const shown = (status: JobRow['status']) => status as Exclude<JobRow['status'], 'uploading'>;

/** The public job. */
export const jobView = (j: JobRow) => ({
  id: j.id,
  status: shown(j.status),
  label: j.label,
  format: j.format,
  watch: j.watch,
  rows_total: j.rows_total,
  rows_done: j.rows_done,
  counts: { clear: j.clear, consider: j.consider, not_found: j.not_found },
  units_charged: j.units,
  watchlist: j.watchlist,
  error: j.error_code ? { code: j.error_code as JobErrorCode, message: j.error_message ?? '' } : null,
  created_at: j.created_at,
  started_at: j.started_at,
  finished_at: j.finished_at,
  expires_at: ACTIVE.has(j.status) ? null : j.keep_until,
  links: links(j.id),
});
export type JobView = ReturnType<typeof jobView>;

/** A row's answer as a batch item has it, without the batch's index. */
type Answer = Omit<Awaited<ReturnType<LicenseesService['batch']>>[number], 'index'>;

const resultView = (j: JobRow, r: ResultRow) => {
  const { name_sent: stored, ...answer } = r.result as unknown as Answer & { name_sent?: NameQuery | null };
  return {
    row: r.row,
    ...answer,
    // Kept with the result; a result stored before it was (2026-11-29) has its row read from its chunk.
    name_sent: stored === undefined ? (r.sent ? nameSent(r.sent) : null) : stored,
    verification_id: r.verification_id,
    watchlist: !j.watch || !r.credential_id ? null : r.over_limit ? ('over_limit' as const) : j.watchlist ? ('watched' as const) : ('pending' as const),
  };
};
export type JobResult = ReturnType<typeof resultView>;

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

export interface ResultsQuery {
  verdicts?: Verdict[];
  /** Only the found rows the full watchlist left out. */
  over_limit?: boolean;
  cursor?: string;
  per_page: number;
}

export function createJobsService(deps: JobsDeps, options: JobsOptions) {
  const { repo, clock, log } = deps;
  const owner = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const keepUntil = (at: Date) => new Date(at.getTime() + options.retentionDays * 86_400_000);

  async function owned(accountId: string, id: string): Promise<JobRow> {
    const j = await repo.get(accountId, id);
    if (!j) throw new NotFoundError(`no verification job ${id} in this account`);
    return j;
  }

  /**
   * Stops a job in `tx`: puts its found rows on the watchlist when it asked to (done rows only, for
   * a failed job) and stores the webhook deliveries that announce it.
   */
  async function finish(tx: SqlTx, j: JobRow, account: AccountRow, status: 'completed' | 'failed', error?: { code: JobErrorCode; message: string }) {
    const at = clock.now();
    let done = await repo.finish(tx, j.id, status, at, keepUntil(at), error);
    if (done.watch) done = { ...done, watchlist: await repo.watchFound(tx, done, effectivePlan(account, at).watchedLicences) };
    const type: JobEventType = status === 'completed' ? 'verification_job.completed' : 'verification_job.failed';
    await deps.events.fanOutEvent(tx, j.account_id, type, { type, timestamp: done.finished_at, data: jobView(done) }, at);
  }

  // The runner: `concurrency` lanes, each leasing one chunk at a time.
  let running = false;
  const lanes: Promise<void>[] = [];
  const waiting = new Set<() => void>();
  const failures = new Map<string, number>();
  const wake = () => {
    for (const w of waiting) w();
    waiting.clear();
  };
  const idle = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        waiting.delete(done);
        resolve();
      }
      waiting.add(done);
    });

  /**
   * A job stopped by its account's metering (quota spent, plan without batch), with what it did
   * kept: once no other chunk of it is in flight, so a chunk charged before the quota ran out is kept too.
   */
  async function stopFor(claim: Claim, account: AccountRow, err: AppError) {
    const code: JobErrorCode = err instanceof QuotaExceededError ? 'quota_exhausted' : 'plan_lacks_batch';
    const stopped = await repo.transaction(async (tx) => {
      const j = await repo.lock(tx, claim.job.id);
      if (!ACTIVE.has(j.status)) return true;
      if (await repo.inFlight(tx, j.id, claim.chunk, clock.now())) return false;
      await finish(tx, j, account, 'failed', { code, message: `stopped after ${j.rows_done.toLocaleString('en-US')} rows: ${err.message}` });
      return true;
    });
    await repo.release(claim.job.id, claim.chunk, owner);
    if (stopped) deps.nudgeWebhooks();
    else await idle(250);
  }

  /** Verifies one chunk and commits it whole (results, evidence, counts, and the job's end when it is the last) if still held. */
  async function run(claim: Claim) {
    const { job } = claim;
    const account = await deps.accountById(job.account_id);
    if (!account) return repo.release(job.id, claim.chunk, owner);
    let ticket;
    try {
      ticket = await deps.meter.admit({ account, keyId: job.key_id ?? '' }, JOB_OPERATION, { paidOnly: true });
    } catch (err) {
      if (err instanceof QuotaExceededError || err instanceof PaymentRequiredError) return stopFor(claim, account, err);
      throw err;
    }
    let committed = false;
    let finished = false;
    try {
      const answers = await deps.licensees.batch(claim.items);
      const at = clock.now();
      const results = answers.map(({ index, ...answer }) => ({ index: claim.first - 1 + index, answer }));
      const body = Buffer.from(JSON.stringify(results.map((r) => r.answer)));
      const call = callOf(
        { account, keyId: job.key_id },
        'job',
        results.map((r, i) => ({ index: r.index, asked: claim.items[i], answer: r.answer })),
        { status: 200, sha256: createHash('sha256').update(body).digest('hex') },
        at,
      );
      const rows: ResultRow[] = results.map((r, i) => {
        const key = canonicalLicenseNumber(claim.items[i].license_number);
        return {
          row: r.index + 1,
          verdict: r.answer.verdict,
          credential_id: r.answer.verified ? credentialId(claim.items[i].state, key) : null,
          state: claim.items[i].state.toUpperCase(),
          license_key: key,
          verification_id: itemId(call.id, i),
          over_limit: false,
          result: { ...r.answer, name_sent: nameSent(claim.items[i]) },
        };
      });
      const counts: Record<Verdict, number> = { clear: 0, consider: 0, not_found: 0 };
      for (const r of rows) counts[r.verdict] += 1;
      committed = await repo.transaction(async (tx) => {
        const j = await repo.lock(tx, job.id);
        // Cancelled meanwhile, or the lease was lost to another worker: nothing of this chunk is kept.
        if (!ACTIVE.has(j.status) || !(await repo.markDone(tx, job.id, claim.chunk, owner, at))) return false;
        await deps.evidence.insertJson(JSON.stringify([call]), tx);
        await repo.insertResults(tx, job.id, rows);
        const after = await repo.count(tx, job.id, counts);
        if (after.rows_done >= after.rows_total) {
          await finish(tx, after, account, 'completed');
          finished = true;
        }
        return true;
      });
    } finally {
      // A chunk not kept is not charged.
      await deps.meter.settle(ticket, committed ? 200 : 499).catch((err) => log.error({ err }, 'metering a job chunk failed'));
    }
    if (finished) deps.nudgeWebhooks();
  }

  /**
   * A worker. While callers' lookups come in, the job gives way (2 cores serve both here): one
   * worker runs, resting as long as each chunk took, so jobs hold at most about half a worker's
   * share of the machine; with no lookups, every worker runs flat out.
   */
  async function lane(n: number) {
    const yielding = () => deps.lookupsComing?.() ?? false;
    while (running) {
      if (n > 0 && yielding()) {
        await idle(250);
        continue;
      }
      let claim: Claim | undefined;
      try {
        const at = clock.now();
        claim = await repo.claim(owner, at, new Date(at.getTime() + options.leaseMs));
      } catch (err) {
        log.error({ err }, 'could not claim a verification job chunk');
        await idle(1000);
        continue;
      }
      if (!claim) {
        await idle(1000);
        continue;
      }
      const key = `${claim.job.id}:${claim.chunk}`;
      try {
        const began = performance.now();
        await run(claim);
        failures.delete(key);
        if (yielding()) await idle(performance.now() - began);
      } catch (err) {
        await repo.release(claim.job.id, claim.chunk, owner).catch(() => undefined);
        // The graph busy or unreachable is waited out; anything else fails the job after a few tries.
        const transient = err instanceof GraphError && err.transient;
        const n = transient ? 0 : (failures.get(key) ?? 0) + 1;
        failures.set(key, n);
        log[transient ? 'warn' : 'error']({ err, job: claim.job.id, chunk: claim.chunk }, 'a verification job chunk failed; it will be tried again');
        if (n >= MAX_CHUNK_FAILURES) {
          failures.delete(key);
          await failJob(claim.job, 'internal_error', `rows ${claim.first} to ${claim.first + claim.items.length - 1} could not be verified`).catch((e) => log.error({ err: e }, 'could not fail a verification job'));
        }
        await idle(transient ? 1000 : 200);
      }
    }
  }

  async function failJob(job: JobRow, code: JobErrorCode, message: string) {
    const account = await deps.accountById(job.account_id);
    if (!account) return;
    await repo.transaction(async (tx) => {
      const j = await repo.lock(tx, job.id);
      if (ACTIVE.has(j.status)) await finish(tx, j, account, 'failed', { code, message });
    });
    deps.nudgeWebhooks();
  }

  /** Refuses (402) an account whose plan in force has no roster jobs: before its roster is read. */
  const checkPlan = (account: AccountRow) => {
    const plan = effectivePlan(account, clock.now());
    if (!plan.batch) throw new PaymentRequiredError(`the ${plan.name} plan does not include roster verification jobs: upgrade to starter, growth or enterprise`);
  };

  return {
    checkPlan,
    /**
     * Queues a roster (checked already). A retry with the same `Idempotency-Key` (24 hours, per
     * account) gets the same job; the key with another roster is a 422.
     */
    async create(
      caller: { account: AccountRow; keyId: string | null },
      roster: RosterRow[],
      /** `id`: the demo job's fixed one (start-up.ts); otherwise a random UUID. */
      o: { watch: boolean; label: string | null; format: 'csv' | 'json'; request: string; idempotencyKey?: string; id?: string },
    ): Promise<{ job: JobView; replayed: boolean }> {
      const at = clock.now();
      checkPlan(caller.account);
      const sha = createHash('sha256').update(`${o.format}|${o.watch}|${o.label ?? ''}|`).update(o.request).digest('hex');
      const row: JobRow = {
        id: o.id ?? randomUUID(),
        account_id: caller.account.id,
        key_id: caller.keyId,
        label: o.label,
        format: o.format,
        status: 'queued',
        watch: o.watch,
        rows_total: roster.length,
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
        keep_until: keepUntil(at).toISOString(),
      };
      const idem = o.idempotencyKey ? { key: o.idempotencyKey, from: new Date(at.getTime() - 24 * 3600_000) } : undefined;
      const { job, created } = await repo.create(row, roster, idem);
      if (!created && job.status === 'uploading') throw new ConflictError('an upload with this Idempotency-Key is still being stored: retry in a few seconds');
      if (!created && job.request_sha256 !== sha) {
        throw new ValidationError([{ loc: ['header', 'Idempotency-Key'], msg: 'was used in the last 24 hours for another roster: send a new key for a new roster', type: 'idempotency_key_reused', input: o.idempotencyKey }]);
      }
      if (created) wake();
      return { job: jobView(job), replayed: !created };
    },

    async get(accountId: string, id: string): Promise<JobView> {
      return jobView(await owned(accountId, id));
    },

    async list(accountId: string, q: { cursor?: string; per_page: number }) {
      const rows = await repo.page(accountId, q.cursor ? jobCursors.decode(q.cursor) : undefined, q.per_page + 1);
      const page = rows.slice(0, q.per_page);
      const last = page[page.length - 1];
      return { data: page.map(jobView), meta: { per_page: q.per_page, next_cursor: rows.length > q.per_page ? jobCursors.encode(last) : null } };
    },

    /** A page of a job's results in roster order; `total` counts every result the filters match so far. */
    async results(accountId: string, id: string, q: ResultsQuery) {
      const j = await owned(accountId, id);
      const rows = await repo.results(j.id, { verdicts: q.verdicts, overLimit: q.over_limit }, q.cursor ? rowCursors.decode(q.cursor) : 0, q.per_page + 1);
      const page = rows.slice(0, q.per_page);
      const byVerdict = (q.verdicts ?? ['clear', 'consider', 'not_found']).reduce((n, v) => n + j[v], 0);
      const total = q.over_limit ? (j.watchlist?.over_limit ?? 0) : byVerdict;
      return {
        data: page.map((r) => resultView(j, r)),
        meta: { per_page: q.per_page, total, job_status: shown(j.status), next_cursor: rows.length > q.per_page ? rowCursors.encode(page[page.length - 1].row) : null },
      };
    },

    /** Every result matching `q` in roster order, read a page at a time (an export's memory is a page). */
    async *allResults(accountId: string, id: string, q: Omit<ResultsQuery, 'cursor' | 'per_page'>, pageSize = 1_000): AsyncGenerator<JobResult> {
      const j = await owned(accountId, id);
      for (let after = 0; ; ) {
        const rows = await repo.results(j.id, { verdicts: q.verdicts, overLimit: q.over_limit }, after, pageSize);
        for (const r of rows) yield resultView(j, r);
        if (rows.length < pageSize) return;
        after = rows[rows.length - 1].row;
      }
    },

    /** Cancels a job that has not finished: rows done stay, the rest are not verified (nor charged). 409 once it finished. */
    async cancel(accountId: string, id: string): Promise<JobView> {
      const at = clock.now();
      const out = await repo.cancel(accountId, id, at, keepUntil(at));
      if (!out) throw new NotFoundError(`no verification job ${id} in this account`);
      if (!out.cancelled) throw new ConflictError(`verification job ${id} is ${out.job.status}: only a queued or running job can be cancelled`);
      return jobView(out.job);
    },

    /** Days a finished job and its results are kept. */
    retentionDays: options.retentionDays,

    /** Drops finished jobs past their retention. */
    prune: () => repo.prune(clock.now()),

    /** Starts this process's workers. */
    async start() {
      if (running) return;
      if (options.soleProcess) await repo.releaseAll();
      running = true;
      for (let i = 0; i < options.concurrency; i++) lanes.push(lane(i));
    },
    /** Stops taking chunks and waits for those in hand to be committed (or given back). */
    async stop() {
      running = false;
      wake();
      await Promise.all(lanes.splice(0));
    },
  };
}
export type JobsService = ReturnType<typeof createJobsService>;
