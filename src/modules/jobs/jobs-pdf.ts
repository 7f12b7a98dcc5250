import type { Response } from 'express';
import { sendPdf } from '../../http/pdf-download.js';
import { nameSentCell } from '../verifications/verifications-csv.js';
import { receiptNote } from '../verifications/verifications-pdf.js';
import type { JobsService } from './jobs.service.js';

type Summary = Awaited<ReturnType<JobsService['summary']>>;
type ResultOf = Summary extends { results(): AsyncGenerator<infer R> } ? R : never;

/** The table's columns: heading, width in characters, and the cell of a result. */
const COLUMNS: [string, number, (r: ResultOf) => string][] = [
  ['Row', 6, (r) => String(r.row)],
  ['ST', 2, (r) => r.state],
  ['Licence', 14, (r) => r.license_number],
  ['Name sent', 24, (r) => nameSentCell(r.name_sent)],
  ['Verdict', 9, (r) => r.verdict],
  ['Reasons', 26, (r) => r.reasons.join(',')],
  ['Name match', 13, (r) => (r.name_match ? `${r.name_match.result} ${r.name_match.score}` : '')],
  ['Snapshot', 10, (r) => r.source?.snapshot_date ?? ''],
  ['Verification id', 36, (r) => r.verification_id],
];
const ROW_HEIGHT = 9;
/** A row as one line of a fixed-width font: one text run a row (a 100,000-row table in seconds). */
const line = (cells: string[]) => cells.map((c, i) => (c.length > COLUMNS[i][1] ? `${c.slice(0, COLUMNS[i][1] - 1)}~` : c.padEnd(COLUMNS[i][1]))).join('  ');

/**
 * A job's summary: the job, every result in roster order (a page of the table at a time, so a
 * 100,000-row job streams), and the job's receipt, signed over the job and its results' lines.
 */
export async function sendJobSummary(res: Response, s: Summary) {
  const { job } = s;
  const pdf = sendPdf(res, { filename: `verification-job-${job.id}.pdf`, title: `Verification job ${job.id}`, layout: 'landscape' });
  const { doc } = pdf;
  pdf.heading('Roster verification summary', `Job ${job.id}${job.label ? `, "${job.label}"` : ''}`);
  pdf.fields([
    ['Status', job.status],
    ['Rows', `${job.rows_done} of ${job.rows_total} verified`],
    ['Verdicts', `clear ${job.counts.clear}, consider ${job.counts.consider}, not found ${job.counts.not_found}`],
    ['Uploaded (UTC)', job.created_at],
    ['Finished (UTC)', job.finished_at],
    ['Kept until', job.expires_at],
  ]);
  pdf.section('Results, in roster order (each row\'s own receipt: GET /api/v1/verifications/{verification id}/receipt)');
  const header = () => {
    doc.font('Courier-Bold').fontSize(7).text(line(COLUMNS.map(([name]) => name)), doc.page.margins.left, doc.y, { lineBreak: false });
    doc.y += ROW_HEIGHT + 2;
    doc.font('Courier');
  };
  header();
  for await (const r of s.results()) {
    if (doc.y + ROW_HEIGHT > doc.page.height - doc.page.margins.bottom) {
      doc.addPage();
      header();
      await pdf.flush();
    }
    const y = doc.y;
    doc.text(line(COLUMNS.map(([, , cell]) => cell(r))), doc.page.margins.left, y, { lineBreak: false });
    doc.y = y + ROW_HEIGHT;
  }
  doc.x = doc.page.margins.left;
  const { receipt } = s;
  const jwksUrl = `${receipt.issuer}/.well-known/jwks.json`;
  await pdf.receipt({
    kid: receipt.kid,
    jws: receipt.jws,
    url: `${receipt.issuer}/api/v1/verification-jobs/${job.id}/receipt`,
    jwksUrl,
    note: receiptNote(
      jwksUrl,
      'the job, its counts, and results.sha256: the SHA-256 of one line per row above, "<row> <verification id> <verdict> <reasons, comma-separated>" and a newline, in roster order (docs/verdicts.md)',
    ),
  });
  await pdf.end();
}
