import type { Request, Response } from 'express';
import { ValidationError } from '../../errors.js';
import { route, type RouteContext } from '../../http/route.js';
import { z } from '../../http/zod.js';
import { DELIVERY_HEADERS, SIGNING } from '../webhooks/webhooks.routes.js';
import { JobCsvQuery, JobEvent, JobReceiptResponse, JobListQuery, JobPage, JobPath, JobRequest, JobResponse, JobResultFilters, JobResultPage, JobResultsQuery } from './jobs.schemas.js';
import { JOB_CSV_COLUMNS, sendJobCsv } from './jobs-csv.js';
import { sendJobSummary } from './jobs-pdf.js';
import type { JobsService } from './jobs.service.js';
import { checkRosterRows, MAX_ROSTER_ROWS, parseRosterCsv } from './roster.js';

/** Where rosters are uploaded (app.ts reads their bodies with a larger limit). */
export const JOBS_PATH = '/api/v1/verification-jobs';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** The `Idempotency-Key` header, when sent: 1 to 255 visible ASCII characters. */
function idempotencyKey(req: Request): string | undefined {
  const key = req.get('idempotency-key');
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw new ValidationError([{ loc: ['header', 'Idempotency-Key'], msg: 'must be 1 to 255 visible ASCII characters (a UUID, say)', type: 'string_pattern_mismatch', input: key.slice(0, 300) }]);
  }
  return key;
}

/** Roster verification jobs: a list verified later, in the background, with its results kept. Reading them is not metered. */
export function jobsRoutes(ctx: RouteContext, service: JobsService) {
  const tags = ['Verification jobs'];
  const caller = (res: Response) => res.locals.caller!;
  route(ctx, {
    method: 'post',
    path: JOBS_PATH,
    operationId: 'createVerificationJob',
    summary: `Verify a roster of up to ${MAX_ROSTER_ROWS.toLocaleString('en-US')} licences in the background (paid plans)`,
    description:
      'The roster is JSON (`rows`, each a batch item) or CSV (`Content-Type: text/csv`: a header naming `state` and `license_number` ' +
      '(also `license`, `license #`, `lic_no`, `licence number`...) and optionally `name`, or `first_name` and `last_name`; other ' +
      'columns are ignored; `watch` and `label` as query parameters). A roster with any row that cannot be verified is refused ' +
      'whole (422): the first `detail` item counts the rows at fault, the next list the first 100 problems by CSV line ' +
      '(`["body", "line", 7, "state"]`) or row (`["body", "rows", 6, "state"]`). Answers 202 with the job and its `Location`; ' +
      'poll it, or subscribe a webhook endpoint to `verification_job.completed`. Metering: one unit per 100 rows started, ' +
      'charged as the job runs; a job that runs out of quota stops (`failed`, `quota_exhausted`) with the rows done kept. ' +
      'Each row is recorded in the verification log. `Idempotency-Key`: a retry with the same key (per account, 24 hours) gets the ' +
      'same job (`Idempotent-Replayed: true`); the key with another roster is a 422, and while the first upload with it is still being stored, a 409.',
    tags,
    query: JobCsvQuery,
    body: JobRequest,
    accepts: 'text/csv',
    status: 202,
    requestHeaders: { 'Idempotency-Key': 'Makes a retried upload the same job (per account, kept 24 hours)' },
    responseHeaders: { Location: 'The job', 'Idempotent-Replayed': '`true` when this is the job an earlier upload with the same Idempotency-Key made' },
    response: JobResponse,
    errors: [402, 409, 413],
    handler: async ({ query, body }, req, res) => {
      const key = idempotencyKey(req);
      // A text/csv body reaches here as the file's bytes (route.ts `accepts`), decoded by parseRosterCsv.
      const file = Buffer.isBuffer(body) ? (body as Buffer) : undefined;
      const csv = file !== undefined ? await parseRosterCsv(file, /charset="?([^";\s]+)/i.exec(req.get('content-type') ?? '')?.[1]) : undefined;
      const roster = csv ? csv.rows : await checkRosterRows(body.rows);
      const { job, replayed } = await service.create(caller(res), roster, {
        watch: (csv ? query.watch : body.watch) ?? false,
        label: (csv ? query.label : body.label) ?? null,
        format: csv ? 'csv' : 'json',
        request: csv ? csv.text : JSON.stringify(body.rows),
        idempotencyKey: key,
      });
      res.location(job.links.self);
      if (replayed) res.set('Idempotent-Replayed', 'true');
      return { data: job };
    },
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/verification-jobs',
    operationId: 'listVerificationJobs',
    summary: 'The account\'s verification jobs, newest first',
    description: `Finished jobs and their results are kept ${service.retentionDays} days after they stop. Not metered.`,
    tags,
    query: JobListQuery,
    response: JobPage,
    handler: ({ query }, _req, res) => service.list(caller(res).account.id, query),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/verification-jobs/:id',
    operationId: 'getVerificationJob',
    summary: 'A job: its status, progress and counts by verdict',
    description: 'Not metered.',
    tags,
    params: JobPath,
    response: JobResponse,
    errors: [404],
    handler: async ({ params }, _req, res) => ({ data: await service.get(caller(res).account.id, params.id) }),
  });
  route(ctx, {
    method: 'delete',
    path: '/api/v1/verification-jobs/:id',
    operationId: 'cancelVerificationJob',
    summary: 'Cancel a job that has not finished',
    description: 'The rows done stay (and were charged); the rest are not verified. A job that stopped already is a 409. Not metered.',
    tags,
    params: JobPath,
    response: JobResponse,
    errors: [404, 409],
    handler: async ({ params }, _req, res) => ({ data: await service.cancel(caller(res).account.id, params.id) }),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/verification-jobs/:id/results',
    operationId: 'listVerificationJobResults',
    summary: 'A job\'s results in roster order, as they are done',
    description: 'Each row holds what a batch item holds, with its `row`, its verification record and, with `watch`, whether it is watched. Not metered.',
    tags,
    params: JobPath,
    query: JobResultsQuery,
    response: JobResultPage,
    errors: [404],
    handler: ({ params, query }, _req, res) =>
      service.results(caller(res).account.id, params.id, { verdicts: query.verdict, over_limit: query.watchlist === 'over_limit' || undefined, cursor: query.cursor, per_page: query.per_page }),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/verification-jobs/:id/results.csv',
    operationId: 'exportVerificationJobResults',
    summary: 'Every result of a job as CSV, in roster order (streamed)',
    description: `Columns: ${JOB_CSV_COLUMNS.join(', ')}. Not metered.`,
    tags,
    params: JobPath,
    query: JobResultFilters,
    produces: 'text/csv',
    response: z.string(),
    errors: [404],
    handler: ({ params, query }, _req, res) =>
      sendJobCsv(res, service.allResults(caller(res).account.id, params.id, { verdicts: query.verdict, over_limit: query.watchlist === 'over_limit' || undefined }), `verification-job-${params.id}.csv`),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/verification-jobs/:id/receipt',
    operationId: 'getVerificationJobReceipt',
    summary: 'A finished job\'s receipt: a compact JWS (Ed25519) over the job and every result',
    description:
      'Signed when the job finishes (or at the first ask) and kept with the job: the same receipt every time. Its payload carries the job and the SHA-256 of its results\' lines; ' +
      'check it with /.well-known/jwks.json (docs/verdicts.md). 409 while the job runs. Each row\'s own receipt is at its verification record. Not metered.',
    tags,
    params: JobPath,
    response: JobReceiptResponse,
    errors: [404, 409],
    handler: async ({ params }, _req, res) => {
      const r = await service.receipt(caller(res).account.id, params.id);
      return { data: { job_id: params.id, kid: r.kid, alg: 'EdDSA' as const, typ: 'verification-job-summary+jwt' as const, signed_at: r.signed_at, jws: r.jws } };
    },
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/verification-jobs/:id/summary.pdf',
    operationId: 'getVerificationJobSummaryPdf',
    summary: 'A job\'s summary as a PDF: the job, every result in roster order, and a signed receipt',
    description:
      'The job\'s receipt (compact JWS, Ed25519; GET .../receipt), over the job and the SHA-256 of its results\' lines, printed whole ' +
      'to check with /.well-known/jwks.json (docs/verdicts.md). Each row\'s own receipt is at its verification record. Streamed; not metered.',
    tags,
    params: JobPath,
    produces: 'application/pdf',
    response: z.string().openapi({ format: 'binary' }),
    errors: [404, 409],
    handler: async ({ params }, _req, res) => sendJobSummary(res, await service.summary(caller(res).account.id, params.id)),
  });
  ctx.registry.registerWebhook({
    method: 'post',
    path: 'verification-job',
    operationId: 'verificationJobWebhook',
    summary: 'A roster verification job stopped (verification_job.completed or verification_job.failed)',
    description: `${SIGNING} Not a change event: the payload carries the job as GET /api/v1/verification-jobs/{id} answers it, with its links; an endpoint gets it when its event_types name the type, or are null.`,
    tags,
    request: {
      headers: DELIVERY_HEADERS,
      body: { required: true, content: { 'application/json': { schema: JobEvent } } },
    },
    responses: {
      200: { description: 'Any 2xx: received. Anything else is retried; 410 disables the endpoint.' },
    },
  });
}
