import type { Response } from 'express';
import { sendCsv } from '../../http/csv-download.js';
import type { VerificationRecord } from './verifications.service.js';

/** The export's columns: a record flattened, reasons space-separated, its latest review. */
export const CSV_COLUMNS = [
  'id', 'created_at', 'key_id', 'operation', 'index', 'state', 'license_number', 'name_sent', 'verified', 'verdict', 'reasons',
  'name_match_result', 'name_match_score', 'name_compared_with', 'license_status', 'expiration_date', 'source_id', 'snapshot_date',
  'last_verified', 'matcher_version', 'http_status', 'body_sha256', 'reviews', 'review_decision', 'review_reason', 'reviewed_by', 'reviewed_at',
] as const;

/** Who reviewed, in one cell: the dashboard user's e-mail, or `key <id>` with the name given. */
export const reviewerCell = (r: VerificationRecord['reviews'][number]['reviewer']) =>
  r.type === 'dashboard_user' ? r.email : `key ${r.key_id}${r.name ? ` (${r.name})` : ''}`;

/** A name as sent, in one cell: `name`, or `first_name last_name`; empty when none was sent. */
export const nameSentCell = (sent: { name?: string; first_name?: string; last_name?: string } | null) =>
  sent ? (sent.name ?? [sent.first_name, sent.last_name].filter(Boolean).join(' ')) : '';

/** A record flattened; the review columns show the latest of its reviews, `reviews` how many there are. */
function csvLine(r: VerificationRecord): Record<(typeof CSV_COLUMNS)[number], unknown> {
  const latest = r.reviews.at(-1);
  return {
    ...r,
    reviews: r.reviews.length,
    review_decision: latest?.decision,
    review_reason: latest?.reason,
    reviewed_by: latest && reviewerCell(latest.reviewer),
    reviewed_at: latest?.created_at,
    name_sent: nameSentCell(r.name_sent),
    reasons: r.reasons.join(' '),
    name_match_result: r.name_match?.result,
    name_match_score: r.name_match?.score,
    name_compared_with: r.name_match?.compared_with.value,
  };
}

/** Streams records as the export's CSV download (see http/csv-download.ts). */
export const sendRecordsCsv = (res: Response, records: AsyncIterable<VerificationRecord>) => sendCsv(res, records, { filename: 'verifications.csv', columns: CSV_COLUMNS, line: csvLine });
