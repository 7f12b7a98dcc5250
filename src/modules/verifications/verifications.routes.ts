import { PLANS } from '../../domain/plans.js';
import { route, type RouteContext } from '../../http/route.js';
import { z } from '../../http/zod.js';
import {
  ReviewBody,
  ReviewPath,
  VerificationFilters,
  VerificationPage,
  VerificationPath,
  VerificationReceipt,
  VerificationRecord,
  VerificationReview,
  VerificationsQuery,
} from './verifications.schemas.js';
import { CSV_COLUMNS, sendRecordsCsv } from './verifications-csv.js';
import type { VerificationsService } from './verifications.service.js';
import { sendCertificate } from './verifications-pdf.js';

const RETENTION = Object.values(PLANS).map((p) => `${p.name} ${p.verificationRetentionDays} days`).join(', ');

/** The account's verification log: every licence its verify and batch calls were answered about. Not metered. */
export function verificationsRoutes(ctx: RouteContext, service: VerificationsService) {
  const tags = ['Verifications'];
  const accountOf = (res: { locals: { caller?: { account: { id: string } } } }) => res.locals.caller!.account.id;
  const ReviewResponse = z.object({ data: VerificationReview }).openapi('VerificationReviewResponse');
  route(ctx, {
    method: 'get',
    path: '/api/v1/verifications',
    operationId: 'listVerifications',
    summary: 'The account\'s verification records, newest first',
    description:
      'One record per licence a verify or batch call answered, committed before the answer was sent. Filters combine with AND; ' +
      `pages follow \`meta.next_cursor\`. Records are kept as long as the plan in force when they were made keeps them (${RETENTION}). Not metered.`,
    tags,
    query: VerificationsQuery,
    response: VerificationPage,
    handler: ({ query }, _req, res) => service.list(accountOf(res), { ...query, verdicts: query.verdict }),
  });
  // Before /verifications/{id}.
  route(ctx, {
    method: 'get',
    path: '/api/v1/verifications.csv',
    operationId: 'exportVerifications',
    summary: 'Every record matching the filters as CSV, newest first (streamed)',
    description: `Columns: ${CSV_COLUMNS.join(', ')}. Not metered.`,
    tags,
    query: VerificationFilters,
    produces: 'text/csv',
    response: z.string(),
    handler: ({ query }, _req, res) => sendRecordsCsv(res, service.all(accountOf(res), { ...query, verdicts: query.verdict })),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/verifications/:id',
    operationId: 'getVerification',
    summary: 'One verification record (the `Verification-Id` an answer carried)',
    description: 'Not metered.',
    tags,
    params: VerificationPath,
    response: z.object({ data: VerificationRecord }).openapi('VerificationResponse'),
    errors: [404],
    handler: async ({ params }, _req, res) => ({ data: await service.get(accountOf(res), params.id) }),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/verifications/:id/receipt',
    operationId: 'getVerificationReceipt',
    summary: 'A record\'s signed receipt (compact JWS, Ed25519)',
    description:
      'Signed the first time it is asked for and kept as long as the record (signed again if its key is later marked compromised). ' +
      'Anyone verifies it with the keys at /.well-known/jwks.json and any JOSE library, without asking this service (docs/verdicts.md). Not metered.',
    tags,
    params: VerificationPath,
    response: z.object({ data: VerificationReceipt }).openapi('VerificationReceiptResponse'),
    errors: [404],
    handler: async ({ params }, _req, res) => ({ data: await service.receipt(accountOf(res), params.id) }),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/verifications/:id/certificate.pdf',
    operationId: 'getVerificationCertificatePdf',
    summary: 'A record as a PDF certificate: what was asked and answered, its reviews, and its receipt',
    description:
      'Prints the record, its reviews, and its receipt whole (kid, signature, URL as a line and a QR code, the JWS), signing it if it never was. Not metered.',
    tags,
    params: VerificationPath,
    produces: 'application/pdf',
    response: z.string().openapi({ format: 'binary' }),
    errors: [404],
    handler: async ({ params }, _req, res) => {
      const { record, receipt } = await service.certificate(accountOf(res), params.id);
      await sendCertificate(res, record, receipt, service.issuer());
    },
  });
  route(ctx, {
    method: 'post',
    path: '/api/v1/verifications/:id/reviews',
    operationId: 'createVerificationReview',
    summary: 'Record a person\'s decision about an answer (a `consider` most often)',
    description:
      'The answer itself never changes; a later review is kept beside an earlier one. The reviewer is the API key that sends it, with `reviewer_name` when given. ' +
      'Answers 201 with the review, its own signed receipt, and its `Location`. Not metered.',
    tags,
    params: VerificationPath,
    body: ReviewBody,
    status: 201,
    response: ReviewResponse,
    responseHeaders: { Location: 'The review' },
    errors: [404],
    handler: async ({ params, body }, _req, res) => {
      const caller = res.locals.caller!;
      const review = await service.review(caller.account.id, params.id, body, { type: 'api_key', key_id: caller.keyId, name: body.reviewer_name ?? null });
      res.location(`/api/v1/verifications/${params.id}/reviews/${review.id}`);
      return { data: review };
    },
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/verifications/:id/reviews',
    operationId: 'listVerificationReviews',
    summary: 'A record\'s reviews, oldest first',
    description: 'Not metered.',
    tags,
    params: VerificationPath,
    response: z.object({ data: z.array(VerificationReview) }).openapi('VerificationReviewList'),
    errors: [404],
    handler: async ({ params }, _req, res) => ({ data: await service.reviews(accountOf(res), params.id) }),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/verifications/:id/reviews/:review_id',
    operationId: 'getVerificationReview',
    summary: 'One review',
    description: 'Not metered.',
    tags,
    params: ReviewPath,
    response: ReviewResponse,
    errors: [404],
    handler: async ({ params }, _req, res) => ({ data: await service.getReview(accountOf(res), params.id, params.review_id) }),
  });
}
