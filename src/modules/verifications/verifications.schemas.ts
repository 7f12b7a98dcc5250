import { VERDICTS } from '../../domain/verdict.js';
import { DATE_RANGE, DATE_RANGE_MESSAGE, inDateRange, isRealDate } from '../../domain/dates.js';
import { LicenseNumberParam, QueryBoolean, StateCode, intQueryParam, nullable, uuidParam } from '../../http/common.schemas.js';
import { DEMO_REVIEW_ID, DEMO_VERIFICATION_ID } from '../../http/examples.js';
import { z } from '../../http/zod.js';
import { NameMatch, ReasonValue, VerdictList, VerdictValue } from '../licensees/licensees.schemas.js';

/** A name as it was sent: `name`, or `first_name` and `last_name`. */
export const NameSent = z.object({ name: z.string().optional(), first_name: z.string().optional(), last_name: z.string().optional() });

const Reviewer = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('dashboard_user'), email: z.string().openapi({ description: 'The signed-in dashboard user' }) }),
    z.object({
      type: z.literal('api_key'),
      key_id: z.string().openapi({ format: 'uuid', description: 'The API key that sent the review' }),
      name: z.string().nullable().openapi({ description: 'The reviewer\'s name as the caller gave it (`reviewer_name`)' }),
    }),
  ])
  .openapi('Reviewer');

export const REVIEW_DECISIONS = ['accepted', 'rejected', 'escalated'] as const;

export const VerificationReview = z
  .object({
    id: z.string().openapi({ format: 'uuid' }),
    verification_id: z.string().openapi({ format: 'uuid' }),
    decision: z.enum(REVIEW_DECISIONS),
    reason: z.string(),
    reviewer: Reviewer,
    created_at: z.string().openapi({ format: 'date-time' }),
    receipt: z
      .object({ kid: z.string(), jws: z.string().openapi({ description: 'Compact JWS (typ `verification-review+jwt`) signed when the review was made' }) })
      .openapi({ description: 'The review\'s own receipt, verifiable with /.well-known/jwks.json' }),
  })
  .openapi('VerificationReview');

export const ReviewBody = z
  .object({
    decision: z.enum(REVIEW_DECISIONS).openapi({ description: 'What the reviewer decided about the answer' }),
    reason: z.string().trim().min(1, 'must not be empty').max(2000),
    reviewer_name: z.string().trim().min(1).max(200).optional().openapi({ description: 'Who reviewed, kept beside the API key that sent it' }),
  })
  .strict()
  .openapi('VerificationReviewInput', { example: { decision: 'accepted', reason: 'Probation noted; the broker confirmed supervision', reviewer_name: 'Pat Lee' } });

export const VerificationRecord = z
  .object({
    id: z.string().openapi({ format: 'uuid', description: 'The `Verification-Id` the answer carried' }),
    created_at: z.string().openapi({ format: 'date-time', description: 'When the answer was recorded (just before it was sent)' }),
    key_id: z.string().nullable().openapi({ format: 'uuid', description: 'The API key that asked; null for a roster job uploaded in the dashboard' }),
    operation: z.enum(['verify', 'batch', 'job']).openapi({ description: 'job: a row of a roster verification job (its result carries this record\'s id)' }),
    index: z.number().int().nullable().openapi({ description: 'Position in the batch request, or in the job\'s roster (its row - 1), from 0; null for verify' }),
    state: z.string(),
    license_number: z.string().openapi({ description: 'As asked' }),
    name_sent: NameSent.nullable().openapi({ description: 'The name asked about; null when none was sent' }),
    verified: z.boolean(),
    verdict: VerdictValue,
    reasons: z.array(ReasonValue),
    name_match: nullable(NameMatch),
    license_status: z.string().nullable().openapi({ description: 'The status served (the answer\'s `licensee.status`)' }),
    expiration_date: z.string().nullable().openapi({ description: 'The expiration date served' }),
    source_id: z.string().nullable().openapi({ description: 'The state source the answer rests on' }),
    snapshot_date: z.string().nullable().openapi({ description: 'That source\'s snapshot date when answered' }),
    last_verified: z.string().nullable().openapi({ description: 'The record\'s last_verified as served' }),
    http_status: z.number().int().openapi({ description: '200, or 304 when the caller\'s cached copy was current' }),
    body_sha256: z.string().openapi({ description: 'SHA-256 (hex) of the JSON body served (for a 304, of the body the cached copy holds)' }),
    matcher_version: z.string().nullable().openapi({ description: 'The name matcher that judged `name_match`; null when no name was sent' }),
    reviews: z.array(VerificationReview).openapi({ description: 'People\'s decisions about this answer, oldest first; they never change it' }),
  })
  .openapi('VerificationRecord');

export const VerificationReceipt = z
  .object({
    verification_id: z.string().openapi({ format: 'uuid' }),
    kid: z.string().openapi({ description: 'The key that signed it, listed at /.well-known/jwks.json' }),
    alg: z.literal('EdDSA'),
    typ: z.literal('verification-receipt+jwt'),
    signed_at: z.string().openapi({ format: 'date-time' }),
    jws: z.string().openapi({ description: 'Compact JWS: its payload carries what was asked and answered, the source and snapshot, the matcher, the account and the SHA-256 of the body served (docs/verdicts.md)' }),
  })
  .openapi('VerificationReceipt');

export const VerificationPage = z
  .object({
    data: z.array(VerificationRecord),
    meta: z.object({
      per_page: z.number().int(),
      next_cursor: z.string().nullable().openapi({ description: 'Pass as `cursor` for the next page; null on the last' }),
    }),
  })
  .openapi('VerificationPage');

/** A moment, or a day (UTC) meaning its start; `end` moves a day to the next day's start (`to` takes whole days). */
const moment = (end: boolean, description: string) =>
  z
    .string()
    .transform((v, ctx) => {
      if (isRealDate(v.slice(0, 10)) && !inDateRange(v.slice(0, 10))) {
        ctx.addIssue({ code: 'custom', message: DATE_RANGE_MESSAGE });
        return z.NEVER;
      }
      if (isRealDate(v)) return new Date(Date.parse(`${v}T00:00:00Z`) + (end ? 86_400_000 : 0));
      // RFC 3339: a date-time always names its offset (Z or +hh:mm), so no server's zone reads into it.
      const t = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(v) && isRealDate(v.slice(0, 10)) ? Date.parse(v) : NaN;
      if (Number.isNaN(t)) {
        ctx.addIssue({ code: 'custom', message: 'must be a date (YYYY-MM-DD) or an RFC 3339 date-time with its offset (2026-11-27T09:30:00Z)' });
        return z.NEVER;
      }
      return new Date(t);
    })
    .optional()
    .openapi({
      type: 'string',
      pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2}))?$',
      description: `${description}: a date (YYYY-MM-DD) or an RFC 3339 date-time with its offset, on a day from ${DATE_RANGE.first} to ${DATE_RANGE.last}`,
    });

const filterFields = {
  from: moment(false, 'Records made at or after this moment (a date: from its start, UTC)'),
  to: moment(true, 'Records made before this moment (a date: through its end, UTC)'),
  state: StateCode.optional(),
  license_number: LicenseNumberParam.optional(),
  verdict: VerdictList.optional().openapi({ description: `Only these verdicts (comma-separated: ${VERDICTS.join(', ')})` }),
  reviewed: QueryBoolean.optional().openapi({ description: 'Only records with a review (true), or without one (false): `verdict=consider&reviewed=false` is what waits for a person' }),
};
const fromBeforeTo = (v: { from?: Date; to?: Date }, ctx: z.RefinementCtx) => {
  if (v.from && v.to && v.from >= v.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
};
export const VerificationFilters = z.object(filterFields).superRefine(fromBeforeTo);
export const VerificationsQuery = z
  .object({
    ...filterFields,
    cursor: z.string().max(200).optional().openapi({ description: 'From the previous page\'s meta.next_cursor' }),
    per_page: intQueryParam(1, 100, 25, 'Records per page, 1 to 100'),
    order: z.enum(['newest', 'oldest']).default('newest').openapi({ description: 'newest first (the default), or oldest first (a review queue)' }),
  })
  .superRefine(fromBeforeTo);
export const VerificationPath = z.object({ id: uuidParam('A Verification-Id').openapi({ example: DEMO_VERIFICATION_ID }) });
export const ReviewPath = VerificationPath.extend({ review_id: uuidParam('A review\'s id').openapi({ example: DEMO_REVIEW_ID }) });
