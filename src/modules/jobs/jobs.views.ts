import { nameSent } from '../licensees/verification.js';
import { isActive, type JobRow, type ResultRow } from './jobs.repo.js';

/** Why a job stopped short (the `error` of a failed or cancelled job). */
export type JobErrorCode = 'quota_exhausted' | 'plan_lacks_batch' | 'internal_error' | 'cancelled';

const links = (id: string) => ({ self: `/api/v1/verification-jobs/${id}`, results: `/api/v1/verification-jobs/${id}/results`, results_csv: `/api/v1/verification-jobs/${id}/results.csv` });

// An uploading job is never read out (jobs.repo.ts).
export const shown = (status: JobRow['status']) => status as Exclude<JobRow['status'], 'uploading'>;

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
  // Only the runner and a cancel write it, each a JobErrorCode.
  error: j.error_code ? { code: j.error_code as JobErrorCode, message: j.error_message ?? '' } : null,
  created_at: j.created_at,
  started_at: j.started_at,
  finished_at: j.finished_at,
  expires_at: isActive(j.status) ? null : j.keep_until,
  links: links(j.id),
});
export type JobView = ReturnType<typeof jobView>;

/** The public result: the batch item's object with its row, the name the row sent, its verification record and its watch. */
export const resultView = (j: JobRow, r: ResultRow) => {
  const { name_sent: stored, ...answer } = r.result;
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
