import type { Response } from 'express';
import { sendPdf } from '../../http/pdf-download.js';
import { nameSentCell } from '../verifications/verifications-csv.js';
import { receiptNote } from '../verifications/verifications-pdf.js';
import type { JobsService } from './jobs.service.js';

/** The table's columns: heading, width in points, and the cell of a result. */
const COLUMNS: [string, number, (r: ResultOf) => string][] = [
  ['Row', 34, (r) => String(r.row)],
  ['State', 30, (r) => r.state],
  ['Licence', 70, (r) => r.license_number],
  ['Name sent', 110, (r) => nameSentCell(r.name_sent)],
  ['Verdict', 48, (r) => r.verdict],
  ['Reasons', 100, (r) => r.reasons.join(', ')],
  ['Name match', 56, (r) => (r.name_match ? `${r.name_match.result} ${r.name_match.score}` : '')],
  ['Snapshot', 56, (r) => (r.source ? `${r.source.snapshot_date ?? ''}` : '')],
  ['Verification id', 188, (r) => r.verification_id],
];
type Summary = Awaited<ReturnType<JobsService['summary']>>;
type ResultOf = Summary extends { results(): AsyncGenerator<infer R> } ? R : never;

const ROW_HEIGHT = 10;
const fit = (text: string, width: number) => (text.length * 3.4 > width ? `${text.slice(0, Math.max(Math.floor(width / 3.4) - 1, 1))}~` : text);

/**
 * A job's summary: the job, every result in roster order (a page of the table at a time, so a
 * 100,000-row job streams), and the receipt signed over the job and its results' lines.
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
    let x = doc.page.margins.left;
    doc.font('Helvetica-Bold').fontSize(7);
    const y = doc.y;
    for (const [name, width] of COLUMNS) {
      doc.text(name, x, y, { width, lineBreak: false });
      x += width;
    }
    doc.y = y + ROW_HEIGHT + 2;
    doc.font('Helvetica');
  };
  header();
  for await (const r of s.results()) {
    if (doc.y + ROW_HEIGHT > doc.page.height - doc.page.margins.bottom) {
      doc.addPage();
      header();
      await pdf.flush();
    }
    let x = doc.page.margins.left;
    const y = doc.y;
    for (const [, width, cell] of COLUMNS) {
      doc.text(fit(cell(r), width - 4), x, y, { width, lineBreak: false });
      x += width;
    }
    doc.y = y + ROW_HEIGHT;
  }
  doc.x = doc.page.margins.left;
  const receipt = await s.receipt();
  const jwksUrl = `${receipt.issuer}/.well-known/jwks.json`;
  await pdf.receipt({
    kid: receipt.kid,
    jws: receipt.jws,
    url: null,
    jwksUrl,
    note: `${receiptNote(jwksUrl)} Its results.sha256 is the SHA-256 of one line per row, "<row> <verification id> <verdict> <reasons, comma-separated>" and a newline, in roster order (docs/verdicts.md).`,
  });
  await pdf.end();
}
