import type { Response } from 'express';
import { sendCsv } from '../../http/csv-download.js';
import type { VerificationRecord } from './verifications.service.js';

/** The export's columns: a record flattened, reasons space-separated. */
export const CSV_COLUMNS = [
  'id', 'created_at', 'key_id', 'operation', 'index', 'state', 'license_number', 'name_sent', 'verified', 'verdict', 'reasons',
  'name_match_result', 'name_match_score', 'name_compared_with', 'license_status', 'expiration_date', 'source_id', 'snapshot_date',
  'last_verified', 'http_status', 'body_sha256',
] as const;

/** A name as sent, in one cell: `name`, or `first_name last_name`; empty when none was sent. */
export const nameSentCell = (sent: { name?: string; first_name?: string; last_name?: string } | null) =>
  sent ? (sent.name ?? [sent.first_name, sent.last_name].filter(Boolean).join(' ')) : '';

function csvLine(r: VerificationRecord): Record<(typeof CSV_COLUMNS)[number], unknown> {
  return {
    ...r,
    name_sent: nameSentCell(r.name_sent),
    reasons: r.reasons.join(' '),
    name_match_result: r.name_match?.result,
    name_match_score: r.name_match?.score,
    name_compared_with: r.name_match?.compared_with.value,
  };
}

/** Streams records as the export's CSV download (see http/csv-download.ts). */
export const sendRecordsCsv = (res: Response, records: AsyncIterable<VerificationRecord>) => sendCsv(res, records, { filename: 'verifications.csv', columns: CSV_COLUMNS, line: csvLine });
