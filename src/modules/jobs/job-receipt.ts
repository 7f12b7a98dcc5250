import { createHash } from 'node:crypto';
import { ConflictError, UnavailableError } from '../../errors.js';
import { RECEIPT_TYPES, type Signer } from '../receipts/signer.js';
import { isActive, type JobRow, type JobsRepo, type KeptReceipt } from './jobs.repo.js';
import { jobView, shown } from './jobs.views.js';

// Results read a statement at a time while digesting: the memory is a page, not the roster.
const RESULTS_PAGE = 10_000;

/**
 * A finished job's receipt: signed over the job and the SHA-256 of its results' lines, by the
 * worker that finishes it (or at the first ask, if that worker stopped first), then kept with the
 * job; signed again once if its key has been marked compromised. A finished job's results never
 * change, so one receipt holds for as long as the job is kept.
 */
export function createJobReceipts(deps: { repo: JobsRepo; signer?: Signer; page?: number }) {
  const { repo, page: PAGE = RESULTS_PAGE } = deps;
  /** What a job's receipt signs of its results: their count and the SHA-256 of their lines (docs/verdicts.md). */
  async function digest(jobId: string) {
    const hash = createHash('sha256');
    let rows = 0;
    for (let after = 0; ; ) {
      const page = await repo.resultLines(jobId, after, PAGE);
      hash.update(page.text);
      rows += page.rows;
      if (page.rows < PAGE) return { rows, sha256: hash.digest('hex') };
      after = page.last;
    }
  }
  const signing = new Map<string, Promise<KeptReceipt>>();
  async function sign(signer: Signer, j: JobRow, replacing?: string): Promise<KeptReceipt> {
    const { id, label, status, rows_total, rows_done, counts, created_at, finished_at } = jobView(j);
    const claims = { sub: j.account_id, jti: j.id, job: { id, label, status, rows_total, rows_done, counts, created_at, finished_at }, results: await digest(j.id) };
    return repo.keepReceipt(j.id, await signer.sign(claims, RECEIPT_TYPES.job), replacing);
  }
  return {
    digest,
    /** The receipt of finished job `j`, signed now when none is kept; 409 while it runs. */
    async of(j: JobRow): Promise<KeptReceipt & { issuer: string }> {
      if (!deps.signer) throw new UnavailableError('receipts are not signed in this process');
      if (isActive(j.status) || j.status === 'uploading') throw new ConflictError(`verification job ${j.id} is ${shown(j.status)}: its receipt is signed when it finishes`);
      const issuer = deps.signer.issuer;
      const kept = await repo.receipt(j.id);
      if (kept && !kept.compromised) return { kid: kept.kid, jws: kept.jws, signed_at: kept.signed_at, issuer };
      // An ask while this process signs it (the worker that finished the job, or another ask) waits for that signature.
      let made = signing.get(j.id);
      if (!made) {
        made = sign(deps.signer, j, kept?.kid).finally(() => signing.delete(j.id));
        signing.set(j.id, made);
      }
      return { ...(await made), issuer };
    },
  };
}
export type JobReceipts = ReturnType<typeof createJobReceipts>;
