import type { Response } from 'express';
import { sendPdf, type PdfWriter } from '../../http/pdf-download.js';
import { nameSentCell, reviewerCell } from './verifications-csv.js';
import type { VerificationRecord, VerificationReceiptView } from './verifications.service.js';

const yesNo = (v: boolean) => (v ? 'yes' : 'no');

/** What an auditor needs to check a receipt without the service (docs/verdicts.md). */
export const receiptNote = (jwksUrl: string, holds: string) =>
  `Check this receipt with any JOSE library: verify the JWS below (alg EdDSA) with the key of its kid from ${jwksUrl}; ` +
  `its payload holds ${holds}. A key listed with "revoked" was marked compromised: ask for the receipt again.`;

/** The record's fields, as the certificate and a job's summary print them. */
export function recordFields(pdf: PdfWriter, r: VerificationRecord) {
  pdf.section('Asked');
  pdf.fields([
    ['State', r.state],
    ['Licence number', r.license_number],
    ['Name sent', nameSentCell(r.name_sent)],
  ]);
  pdf.section('Answered');
  pdf.fields([
    ['Verified (on file)', yesNo(r.verified)],
    ['Verdict', r.verdict],
    ['Reasons', r.reasons.join(', ')],
    ['Licence status', r.license_status],
    ['Expiration date', r.expiration_date],
    ['Name match', r.name_match ? `${r.name_match.result} (score ${r.name_match.score}) against ${r.name_match.compared_with.field} "${r.name_match.compared_with.value}"` : null],
    ['Name matcher', r.matcher_version],
    ['Source', r.source_id],
    ['Source snapshot', r.snapshot_date],
    ['Record last verified', r.last_verified],
    ['HTTP status', r.http_status],
    ['SHA-256 of the body', r.body_sha256],
  ]);
}

/** The certificate of one verification: the record, its reviews and its receipt. */
export async function sendCertificate(res: Response, r: VerificationRecord, receipt: VerificationReceiptView, base: string) {
  const pdf = sendPdf(res, { filename: `verification-${r.id}.pdf`, title: `Verification ${r.id}` });
  pdf.heading('Verification certificate', `Licensee Verification Service, ${base}`);
  pdf.fields([
    ['Verification id', r.id],
    ['Recorded at (UTC)', r.created_at],
    ['Operation', r.index === null ? r.operation : `${r.operation}, item ${r.index}`],
    ['API key', r.key_id ?? 'a roster uploaded in the dashboard'],
  ]);
  recordFields(pdf, r);
  if (r.reviews.length) {
    pdf.section('Reviews (they never change the answer)');
    for (const v of r.reviews) pdf.fields([[v.created_at, `${v.decision} by ${reviewerCell(v.reviewer)}: ${v.reason} (review ${v.id}, its receipt signed by ${v.receipt.kid})`]]);
  }
  const jwksUrl = `${base}/.well-known/jwks.json`;
  await pdf.receipt({ kid: receipt.kid, jws: receipt.jws, url: `${base}/api/v1/verifications/${r.id}/receipt`, jwksUrl, note: receiptNote(jwksUrl, 'what was asked and answered and the SHA-256 of the body served') });
  await pdf.end();
}
