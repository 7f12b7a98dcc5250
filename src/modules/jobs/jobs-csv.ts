import type { Response } from 'express';
import { sendCsv } from '../../http/csv-download.js';
import { nameSentCell } from '../verifications/verifications-csv.js';
import type { JobResult } from './jobs.views.js';

/** The results download's columns: a result flattened, reasons space-separated, the name sent in one cell (`name`, or `first_name last_name`). */
export const JOB_CSV_COLUMNS = [
  'row', 'state', 'license_number', 'name_sent', 'verified', 'verdict', 'reasons', 'name_match_result', 'name_match_score', 'name_compared_with',
  'full_name', 'business_name', 'license_type', 'license_status', 'expiration_date', 'source_id', 'snapshot_date', 'stale',
  'verification_id', 'watchlist',
] as const;

function line(r: JobResult): Record<(typeof JOB_CSV_COLUMNS)[number], unknown> {
  return {
    ...r,
    name_sent: nameSentCell(r.name_sent),
    reasons: r.reasons.join(' '),
    name_match_result: r.name_match?.result,
    name_match_score: r.name_match?.score,
    name_compared_with: r.name_match?.compared_with.value,
    full_name: r.licensee?.full_name,
    business_name: r.licensee?.business_name,
    license_type: r.licensee?.license_type,
    license_status: r.licensee?.status,
    expiration_date: r.licensee?.expiration_date,
    source_id: r.source?.id,
    snapshot_date: r.source?.snapshot_date,
    stale: r.source?.stale,
  };
}

/** Streams a job's results as a CSV download (see http/csv-download.ts). */
export const sendJobCsv = (res: Response, results: AsyncIterable<JobResult>, filename: string) => sendCsv(res, results, { filename, columns: JOB_CSV_COLUMNS, line });
