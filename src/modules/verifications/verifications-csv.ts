import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import type { Response } from 'express';
import type { VerificationRecord } from './verifications.service.js';

/** The export's columns: a record flattened, reasons space-separated. */
export const CSV_COLUMNS = [
  'id', 'created_at', 'key_id', 'operation', 'index', 'state', 'license_number', 'name_sent', 'verified', 'verdict', 'reasons',
  'name_match_result', 'name_match_score', 'name_compared_with', 'licence_status', 'expiration_date', 'source_id', 'snapshot_date',
  'last_verified', 'http_status', 'body_sha256',
] as const;

function csvLine(r: VerificationRecord): Record<(typeof CSV_COLUMNS)[number], unknown> {
  const sent = r.name_sent;
  return {
    ...r,
    name_sent: sent ? (sent.name ?? [sent.first_name, sent.last_name].filter(Boolean).join(' ')) : '',
    reasons: r.reasons.join(' '),
    name_match_result: r.name_match?.result,
    name_match_score: r.name_match?.score,
    name_compared_with: r.name_match?.compared_with.value,
  };
}

/**
 * Streams records as a CSV download, with back-pressure: memory holds a page of them, not the
 * export. The first page is read before anything is sent, so a store that cannot answer is a 503,
 * not a cut download. Cells a spreadsheet would run as formulas are escaped.
 */
export async function sendCsv(res: Response, records: AsyncIterable<VerificationRecord>): Promise<void> {
  const it = records[Symbol.asyncIterator]();
  const first = await it.next();
  async function* all() {
    if (first.done) return;
    yield first.value;
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
  }
  res.type('text/csv; charset=utf-8').attachment('verifications.csv');
  const lines = new Transform({ objectMode: true, transform: (r: VerificationRecord, _e, done) => done(null, csvLine(r)) });
  await pipeline(Readable.from(all()), lines, stringify({ header: true, columns: [...CSV_COLUMNS], escape_formulas: true, cast: { boolean: (v) => String(v) } }), res);
}
