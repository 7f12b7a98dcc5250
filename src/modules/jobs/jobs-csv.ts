import type { Response } from 'express';
import { sendCsv } from '../../http/csv-download.js';
import { nameSentCell } from '../verifications/verifications-csv.js';
import type { JobResult } from './jobs.service.js';

/** The results download's columns: a result flattened, reasons space-separated, the name sent in one cell (`name`, or `first_name last_name`). */
export const JOB_CSV_COLUMNS = [
  'row', 'state', 'license_number', 'name_sent', 'verified', 'verdict', 'reasons', 'name_match_result', 'name_match_score', 'name_compared_with',
  'full_name', 'business_name', 'license_type', 'license_status', 'expiration_date', 'source_id', 'snapshot_date', 'stale',
  'verification_id', 'watchlist',
] as const;

interface Shown {
  licensee?: { full_name?: string | null; business_name?: string | null; license_type?: string | null; status?: string | null; expiration_date?: string | null } | null;
  reasons: string[];
  name_match: { result: string; score: number; compared_with: { value: string } } | null;
  source: { id: string | null; snapshot_date: string | null; stale: boolean } | null;
}

function line(r: JobResult): Record<(typeof JOB_CSV_COLUMNS)[number], unknown> {
  const x = r as unknown as JobResult & Shown;
  return {
    ...r,
    name_sent: nameSentCell(r.name_sent),
    reasons: x.reasons.join(' '),
    name_match_result: x.name_match?.result,
    name_match_score: x.name_match?.score,
    name_compared_with: x.name_match?.compared_with.value,
    full_name: x.licensee?.full_name,
    business_name: x.licensee?.business_name,
    license_type: x.licensee?.license_type,
    license_status: x.licensee?.status,
    expiration_date: x.licensee?.expiration_date,
    source_id: x.source?.id,
    snapshot_date: x.source?.snapshot_date,
    stale: x.source?.stale,
  };
}

/** Streams a job's results as a CSV download (see http/csv-download.ts). */
export const sendJobCsv = (res: Response, results: AsyncIterable<JobResult>, filename: string) => sendCsv(res, results, { filename, columns: JOB_CSV_COLUMNS, line });
