import { PLANS } from '../../domain/plans.js';
import { route, type RouteContext } from '../../http/route.js';
import { z } from '../../http/zod.js';
import { VerificationFilters, VerificationPage, VerificationPath, VerificationRecord, VerificationsQuery } from './verifications.schemas.js';
import { CSV_COLUMNS, sendRecordsCsv } from './verifications-csv.js';
import type { VerificationsService } from './verifications.service.js';

const RETENTION = Object.values(PLANS).map((p) => `${p.name} ${p.verificationRetentionDays} days`).join(', ');

/** The account's verification log: every licence its verify and batch calls were answered about. Not metered. */
export function verificationsRoutes(ctx: RouteContext, service: VerificationsService) {
  const tags = ['Verifications'];
  const accountOf = (res: { locals: { caller?: { account: { id: string } } } }) => res.locals.caller!.account.id;
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
}
