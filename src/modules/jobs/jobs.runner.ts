import { createHash, randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Clock } from '../../domain/clock.js';
import { canonicalLicenseNumber, credentialId } from '../../domain/identity.js';
import type { Verdict } from '../../domain/verdict.js';
import type { JobEventType } from '../../domain/webhook-events.js';
import { GraphError, PaymentRequiredError, QuotaExceededError, type AppError } from '../../errors.js';
import type { SqlTx } from '../../store/sql-store.js';
import type { Account } from '../accounts/account.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { Meter } from '../accounts/metering.js';
import type { LicenseesService } from '../licensees/licensees.service.js';
import { nameSent, type BatchAnswer } from '../licensees/verification.js';
import type { VerificationsService } from '../verifications/verifications.service.js';
import type { WatchlistService } from '../watchlist/watchlist.service.js';
import type { WebhooksService } from '../webhooks/webhooks.service.js';
import type { JobReceipts } from './job-receipt.js';
import { isActive, keepUntil, type Claim, type JobRow, type JobsRepo, type ResultRow } from './jobs.repo.js';
import { jobView, type JobErrorCode } from './jobs.views.js';
import type { RosterRow } from './roster.js';

export interface JobRunnerOptions {
  /** Chunks (batches of 100) verified at once by this process: the graph queries jobs may hold. */
  concurrency: number;
  /** How long a worker holds a chunk before another may take it (a crashed worker's, say). */
  leaseMs: number;
  /** Days a finished job and its results are kept. */
  retentionDays: number;
  /** Only one process can open the store (PGlite): leases left by a previous run are taken back at start. */
  soleProcess: boolean;
}

/**
 * What the runner needs: the jobs' store, the graph's batch verify, the meter, and the neighbours
 * a chunk's transaction writes through (each taking that transaction, so a chunk commits whole).
 */
export interface JobRunnerDeps {
  repo: JobsRepo;
  licensees: Pick<LicenseesService, 'batch'>;
  meter: Pick<Meter, 'admit' | 'settle'>;
  accounts: Pick<AccountsService, 'accountById'>;
  verifications: Pick<VerificationsService, 'recordIn'>;
  watchlist: Pick<WatchlistService, 'addInOrder'>;
  webhooks: Pick<WebhooksService, 'fanOutEvent' | 'nudge'>;
  clock: Clock;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Callers' lookups are coming in (began within the last second): jobs yield to them. */
  lookupsComing?: () => boolean;
  /** Signs a finished job's receipt (absent: signed when first asked for). */
  receipts?: Pick<JobReceipts, 'of'>;
}

/** The operation a job's units are counted under in the account's usage. */
export const JOB_OPERATION = 'verificationJob';
// A chunk that fails this many times in a row (not for want of the graph) fails its job.
const MAX_CHUNK_FAILURES = 5;

/** A runner's parts as its plain functions take them. */
interface Runner extends JobRunnerDeps {
  options: JobRunnerOptions;
  /** This process's lease owner. */
  owner: string;
  /** Waits `ms`, or less when woken. */
  idle(ms: number): Promise<void>;
  /** Failures in a row, by `job:chunk`. */
  failures: Map<string, number>;
}

/** Waits that a wake cuts short. */
function sleeper() {
  const waiting = new Set<() => void>();
  return {
    wake() {
      for (const w of waiting) w();
      waiting.clear();
    },
    idle: (ms: number) =>
      new Promise<void>((resolve) => {
        const t = setTimeout(done, ms);
        function done() {
          clearTimeout(t);
          waiting.delete(done);
          resolve();
        }
        waiting.add(done);
      }),
  };
}

/** Puts a job's found licences on its account's watchlist in roster order (each once), and marks the rows the limit left off. */
async function watchFound(r: Runner, tx: SqlTx, j: JobRow, account: Account): Promise<NonNullable<JobRow['watchlist']>> {
  const watched = await r.watchlist.addInOrder(tx, account, await r.repo.foundLicences(tx, j.id));
  const overLimit = await r.repo.markOverLimit(tx, j.id, watched.left_out);
  const summary = { added: watched.added, already_watched: watched.already_watched, over_limit: overLimit, limit: watched.limit };
  await r.repo.setWatchlist(tx, j.id, summary);
  return summary;
}

/**
 * Stops a job in `tx`: puts its found rows on the watchlist when it asked to (done rows only, for
 * a failed job) and stores the webhook deliveries that announce it.
 */
async function finish(r: Runner, tx: SqlTx, j: JobRow, account: Account, status: 'completed' | 'failed', error?: { code: JobErrorCode; message: string }) {
  const at = r.clock.now();
  let done = await r.repo.finish(tx, j.id, status, at, keepUntil(at, r.options.retentionDays), error);
  if (done.watch) done = { ...done, watchlist: await watchFound(r, tx, done, account) };
  const type: JobEventType = status === 'completed' ? 'verification_job.completed' : 'verification_job.failed';
  await r.webhooks.fanOutEvent(tx, j.account_id, type, { type, timestamp: done.finished_at, data: jobView(done) }, at);
}

/**
 * Signs a job's receipt once it has finished, so that the job's evidence is there when it is told
 * finished; a failure is logged, and the receipt is signed when first asked for instead.
 */
async function seal(r: Runner, job: JobRow) {
  if (!r.receipts) return;
  try {
    const done = await r.repo.get(job.account_id, job.id);
    if (done && !isActive(done.status)) await r.receipts.of(done);
  } catch (err) {
    r.log.warn({ err, job: job.id }, 'signing a finished job\'s receipt failed: it is signed when first asked for');
  }
}

async function failJob(r: Runner, job: JobRow, code: JobErrorCode, message: string) {
  const account = await r.accounts.accountById(job.account_id);
  if (!account) return;
  await r.repo.transaction(async (tx) => {
    const j = await r.repo.lock(tx, job.id);
    if (isActive(j.status)) await finish(r, tx, j, account, 'failed', { code, message });
  });
  r.webhooks.nudge();
  await seal(r, job);
}

/**
 * A job stopped by its account's metering (quota spent, plan without batch), with what it did
 * kept: once no other chunk of it is in flight, so a chunk charged before the quota ran out is kept too.
 */
async function stopFor(r: Runner, claim: Claim, account: Account, err: AppError) {
  const code: JobErrorCode = err instanceof QuotaExceededError ? 'quota_exhausted' : 'plan_lacks_batch';
  const stopped = await r.repo.transaction(async (tx) => {
    const j = await r.repo.lock(tx, claim.job.id);
    if (!isActive(j.status)) return true;
    if (await r.repo.inFlight(tx, j.id, claim.chunk, r.clock.now())) return false;
    await finish(r, tx, j, account, 'failed', { code, message: `stopped after ${j.rows_done.toLocaleString('en-US')} rows: ${err.message}` });
    return true;
  });
  await r.repo.release(claim.job.id, claim.chunk, r.owner);
  if (stopped) {
    r.webhooks.nudge();
    await seal(r, claim.job);
  } else await r.idle(250);
}

/** A roster row answered: its place in the roster from 0, the row, and the batch item's answer without its index. */
interface Answered {
  index: number;
  asked: RosterRow;
  answer: Omit<BatchAnswer, 'index'>;
}

const resultRow = ({ index, asked, answer }: Answered, verificationId: string): ResultRow => {
  const key = canonicalLicenseNumber(asked.license_number);
  return {
    row: index + 1,
    verdict: answer.verdict,
    credential_id: answer.verified ? credentialId(asked.state, key) : null,
    state: asked.state.toUpperCase(),
    license_key: key,
    verification_id: verificationId,
    over_limit: false,
    result: { ...answer, name_sent: nameSent(asked) },
  };
};

/**
 * Commits a chunk's answers whole in one transaction, in this order (the account row's lock comes
 * after the verification record's KEY SHARE on it: accounts.repo.ts lockAccount): the chunk done, its
 * verification records, its results, the job's counts, and its end when it is the last. Nothing when the job
 * was cancelled meanwhile or the lease was lost to another worker.
 */
async function commitChunk(r: Runner, claim: Claim, account: Account, answers: BatchAnswer[]): Promise<'dropped' | 'kept' | 'finished'> {
  const { job } = claim;
  const at = r.clock.now();
  const answered: Answered[] = answers.map(({ index, ...answer }) => ({ index: claim.first - 1 + index, asked: claim.items[index], answer }));
  const served = { status: 200, sha256: createHash('sha256').update(JSON.stringify(answered.map((a) => a.answer))).digest('hex') };
  const counts: Record<Verdict, number> = { clear: 0, consider: 0, not_found: 0 };
  for (const a of answered) counts[a.answer.verdict] += 1;
  return r.repo.transaction(async (tx) => {
    const j = await r.repo.lock(tx, job.id);
    if (!isActive(j.status) || !(await r.repo.markDone(tx, job.id, claim.chunk, r.owner, at))) return 'dropped';
    const ids = await r.verifications.recordIn(tx, { account, keyId: job.key_id }, 'job', answered, served);
    await r.repo.insertResults(tx, job.id, answered.map((a, i) => resultRow(a, ids[i])));
    const after = await r.repo.count(tx, job.id, counts);
    if (after.rows_done < after.rows_total) return 'kept';
    await finish(r, tx, after, account, 'completed');
    return 'finished';
  });
}

/** Verifies one chunk and commits it whole if still held; charged only when kept. */
async function run(r: Runner, claim: Claim) {
  const { job } = claim;
  const account = await r.accounts.accountById(job.account_id);
  if (!account) return r.repo.release(job.id, claim.chunk, r.owner);
  let ticket;
  try {
    ticket = await r.meter.admit({ account, keyId: job.key_id ?? '' }, JOB_OPERATION, { paidOnly: true });
  } catch (err) {
    if (err instanceof QuotaExceededError || err instanceof PaymentRequiredError) return stopFor(r, claim, account, err);
    throw err;
  }
  let outcome: Awaited<ReturnType<typeof commitChunk>> = 'dropped';
  try {
    outcome = await commitChunk(r, claim, account, await r.licensees.batch(claim.items));
  } finally {
    // A chunk not kept is not charged.
    await r.meter.settle(ticket, outcome === 'dropped' ? 499 : 200).catch((err) => r.log.error({ err }, 'metering a job chunk failed'));
  }
  if (outcome === 'finished') {
    r.webhooks.nudge();
    await seal(r, job);
  }
}

/** The next chunk to do, leased to this process; undefined (after a rest) when there is none or the store failed. */
async function claimNext(r: Runner): Promise<Claim | undefined> {
  try {
    const at = r.clock.now();
    const claim = await r.repo.claim(r.owner, at, new Date(at.getTime() + r.options.leaseMs));
    if (!claim) await r.idle(1000);
    return claim;
  } catch (err) {
    r.log.error({ err }, 'could not claim a verification job chunk');
    await r.idle(1000);
    return undefined;
  }
}

/** A chunk that failed: given back, and its job failed after a few tries (the graph busy or unreachable is waited out). */
async function chunkFailed(r: Runner, claim: Claim, err: unknown) {
  await r.repo.release(claim.job.id, claim.chunk, r.owner).catch(() => undefined);
  const key = `${claim.job.id}:${claim.chunk}`;
  const transient = err instanceof GraphError && err.transient;
  const n = transient ? 0 : (r.failures.get(key) ?? 0) + 1;
  r.failures.set(key, n);
  r.log[transient ? 'warn' : 'error']({ err, job: claim.job.id, chunk: claim.chunk }, 'a verification job chunk failed; it will be tried again');
  if (n >= MAX_CHUNK_FAILURES) {
    r.failures.delete(key);
    const rows = `rows ${claim.first} to ${claim.first + claim.items.length - 1} could not be verified`;
    await failJob(r, claim.job, 'internal_error', rows).catch((e) => r.log.error({ err: e }, 'could not fail a verification job'));
  }
  await r.idle(transient ? 1000 : 200);
}

/**
 * A worker. While callers' lookups come in, the job gives way (2 cores serve both here): one
 * worker runs, resting as long as each chunk took, so jobs hold at most about half a worker's
 * share of the machine; with no lookups, every worker runs flat out.
 */
async function lane(r: Runner, n: number, running: () => boolean) {
  const yielding = () => r.lookupsComing?.() ?? false;
  while (running()) {
    if (n > 0 && yielding()) {
      await r.idle(250);
      continue;
    }
    const claim = await claimNext(r);
    if (!claim) continue;
    try {
      const began = performance.now();
      await run(r, claim);
      r.failures.delete(`${claim.job.id}:${claim.chunk}`);
      if (yielding()) await r.idle(performance.now() - began);
    } catch (err) {
      await chunkFailed(r, claim, err);
    }
  }
}

/**
 * The roster jobs' workers of this process: `concurrency` lanes, each leasing one chunk at a time.
 * `wake` cuts idle lanes' wait short (a job was queued); `stop` waits for the chunks in hand to be
 * committed or given back.
 */
export function createJobRunner(deps: JobRunnerDeps, options: JobRunnerOptions) {
  const { wake, idle } = sleeper();
  const r: Runner = { ...deps, options, owner: `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`, idle, failures: new Map() };
  let running = false;
  const lanes: Promise<void>[] = [];
  return {
    wake,
    async start() {
      if (running) return;
      if (options.soleProcess) await deps.repo.releaseAll();
      running = true;
      for (let i = 0; i < options.concurrency; i++) lanes.push(lane(r, i, () => running));
    },
    async stop() {
      running = false;
      wake();
      await Promise.all(lanes.splice(0));
    },
  };
}
export type JobRunner = ReturnType<typeof createJobRunner>;
