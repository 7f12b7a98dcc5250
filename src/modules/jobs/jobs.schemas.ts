import { QueryBoolean, intQueryParam, nullable, uuidParam } from '../../http/common.schemas.js';
import { DEMO_JOB_ID } from '../../http/examples.js';
import { z } from '../../http/zod.js';
import { BATCH_EXAMPLE, BatchVerifyResult, VerdictList } from '../licensees/licensees.schemas.js';
import { NameSent } from '../verifications/verifications.schemas.js';
import { MAX_ROSTER_ROWS } from './roster.js';

const Label = z.string().trim().min(1).max(200).openapi({ description: 'A name for the job, shown in lists' });

/** The JSON form of an upload; the CSV form sends the file as the body and these as query parameters. */
export const JobRequest = z
  .object({
    rows: z
      .array(z.unknown())
      .min(1, 'must hold at least 1 row')
      .openapi({ type: 'array', items: { $ref: '#/components/schemas/BatchVerifyItem' }, maxItems: MAX_ROSTER_ROWS, description: `The roster: 1 to ${MAX_ROSTER_ROWS.toLocaleString('en-US')} batch items, checked as batch items are` }),
    watch: z.boolean().optional().openapi({ description: 'Also put every row found on the account\'s watchlist, in roster order, within the plan\'s limit' }),
    label: Label.optional(),
  })
  .strict()
  .openapi('VerificationJobRequest', {
    example: { rows: BATCH_EXAMPLE, watch: true, label: 'Onboarding, November' },
  });

export const JobCsvQuery = z.object({
  watch: QueryBoolean.optional().openapi({ description: 'CSV uploads: as `watch` in the JSON form' }),
  label: Label.optional().openapi({ description: 'CSV uploads: as `label` in the JSON form' }),
});

const Counts = z.object({ clear: z.number().int(), consider: z.number().int(), not_found: z.number().int() });

export const Job = z
  .object({
    id: z.string().openapi({ format: 'uuid' }),
    status: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']),
    label: z.string().nullable(),
    format: z.enum(['csv', 'json']),
    watch: z.boolean(),
    rows_total: z.number().int(),
    rows_done: z.number().int(),
    counts: Counts.openapi({ description: 'Rows done, by verdict' }),
    units_charged: z.number().int().openapi({ description: 'Metered units charged so far: one per 100 rows started (the last chunk may hold fewer)' }),
    watchlist: nullable(
      z.object({
        added: z.number().int(),
        already_watched: z.number().int(),
        over_limit: z.number().int().openapi({ description: 'Found rows left off because the plan\'s watchlist limit was reached (results with `watchlist: "over_limit"`)' }),
        limit: z.number().int(),
      }),
    ).openapi({ description: 'With `watch`: what the job put on the watchlist, once it stopped; null before' }),
    error: nullable(z.object({ code: z.enum(['quota_exhausted', 'plan_lacks_batch', 'internal_error', 'cancelled']), message: z.string() })).openapi({
      description: 'Why a job failed or stopped: quota_exhausted (the monthly quota ran out: the rows done are kept), plan_lacks_batch, internal_error, cancelled',
    }),
    created_at: z.string().openapi({ format: 'date-time' }),
    started_at: z.string().nullable().openapi({ format: 'date-time' }),
    finished_at: z.string().nullable().openapi({ format: 'date-time' }),
    expires_at: z.string().nullable().openapi({ format: 'date-time', description: 'When the job and its results are deleted; null while it runs' }),
    links: z.object({ self: z.string(), results: z.string(), results_csv: z.string() }),
  })
  .openapi('VerificationJob');

export const JobReceiptResponse = z
  .object({
    data: z
      .object({
        job_id: z.string().openapi({ format: 'uuid' }),
        kid: z.string().openapi({ description: 'The key that signed it, listed at /.well-known/jwks.json' }),
        alg: z.literal('EdDSA'),
        typ: z.literal('verification-job-summary+jwt'),
        signed_at: z.string().openapi({ format: 'date-time' }),
        jws: z.string().openapi({
          description:
            'Compact JWS: its payload carries the job (id, label, status, rows, counts, created_at, finished_at) and results: rows and sha256, ' +
            'the SHA-256 of one line per result in roster order, "<row> <verification id> <verdict> <reasons, comma-separated>" and a newline (docs/verdicts.md)',
        }),
      })
      .openapi('VerificationJobReceipt'),
  })
  .openapi('VerificationJobReceiptResponse');

export const JobResponse = z.object({ data: Job }).openapi('VerificationJobResponse');

export const JobPage = z
  .object({ data: z.array(Job), meta: z.object({ per_page: z.number().int(), next_cursor: z.string().nullable() }) })
  .openapi('VerificationJobPage');

export const JobPath = z.object({ id: uuidParam('The job\'s id').openapi({ example: DEMO_JOB_ID }) });

export const JobListQuery = z.object({
  cursor: z.string().max(200).optional().openapi({ description: 'meta.next_cursor of the previous page' }),
  per_page: intQueryParam(1, 100, 25, 'Jobs per page, 1 to 100'),
});

export const JobResultFilters = z.object({
  verdict: VerdictList.optional().openapi({ description: 'Only rows with these verdicts (comma-separated)' }),
  watchlist: z.enum(['over_limit']).optional().openapi({ description: 'over_limit: only the found rows the full watchlist left off' }),
});

export const JobResultsQuery = JobResultFilters.extend({
  cursor: z.string().max(200).optional().openapi({ description: 'meta.next_cursor of the previous page' }),
  per_page: intQueryParam(1, 100, 50, 'Rows per page, 1 to 100'),
});

export const JobResult = BatchVerifyResult.omit({ index: true })
  .extend({
    row: z.number().int().openapi({ description: 'The row\'s place in the roster, from 1 (a CSV\'s header is not a row)' }),
    name_sent: NameSent.nullable().openapi({
      description: 'The name the row sent (`name`, or `first_name` and `last_name`), to read beside the name on file (`licensee.full_name`, `name_match`); null when the row sent none',
    }),
    verification_id: z.string().openapi({ format: 'uuid', description: 'Its verification record (GET /api/v1/verifications/{id})' }),
    watchlist: z.enum(['watched', 'over_limit', 'pending']).nullable().openapi({
      description: 'With `watch`, for a found row: watched (on the watchlist), over_limit (the limit was reached), pending (the job has not stopped yet); else null',
    }),
  })
  .openapi('VerificationJobResult');

export const JobResultPage = z
  .object({
    data: z.array(JobResult),
    meta: z.object({
      per_page: z.number().int(),
      total: z.number().int().openapi({ description: 'Rows done so far that match the filters' }),
      job_status: Job.shape.status,
      next_cursor: z.string().nullable(),
    }),
  })
  .openapi('VerificationJobResultPage');

export const JobEvent = z
  .object({
    type: z.enum(['verification_job.completed', 'verification_job.failed']),
    timestamp: z.string().openapi({ format: 'date-time', description: 'When the job stopped' }),
    data: Job,
  })
  .openapi('VerificationJobEvent');
