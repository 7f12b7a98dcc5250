import { recordBeforeSending, type ServedAnswer } from '../../http/served-answer.js';
import type { Caller } from '../../http/auth.js';
import { route, type RouteContext } from '../../http/route.js';
import {
  BatchVerifyQuery,
  BatchVerifyRequest,
  BatchVerifyResponse,
  LicensePath,
  LicenseeListResponse,
  LicenseeResponse,
  SearchQuery,
  VerifyQuery,
  VerifyResponse,
} from './licensees.schemas.js';
import type { LicenseesService } from './licensees.service.js';
import type { AnsweredItem } from './verification.js';

/** Records the licences one call answered (the verification log); absent: nothing is recorded. */
export type RecordAnswers = (caller: Caller, operation: 'verify' | 'batch', items: AnsweredItem[], served: ServedAnswer) => Promise<string[]>;

const VERIFICATION_ID =
  'The id of the verification record of this answer (GET /api/v1/verifications/{id}); a batch lists one per item, in request order, ' +
  'separated by ", ". The record is committed before the answer is sent, 304 answers included.';

export function licenseesRoutes(ctx: RouteContext, service: LicenseesService, record?: RecordAnswers) {
  const tags = ['Licensees'];
  route(ctx, {
    method: 'get',
    path: '/api/v1/licensees',
    operationId: 'searchLicensees',
    metered: 'lookup',
    summary: 'Search licensees within one state',
    description:
      'Filters combine with AND. Text filters are case- and accent-insensitive substring matches; every whitespace-separated ' +
      'term must match. Results are ordered by last name (or business name), first name, middle name, then licence number; ' +
      '`meta.total` is exact and pages never overlap. A page past the end is 200 with empty `data`.',
    tags,
    query: SearchQuery,
    response: LicenseeListResponse,
    handler: ({ query }) => service.search({ ...query, states: [query.state] }),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/licensees/verify',
    operationId: 'verifyLicense',
    metered: 'lookup',
    summary: 'Verify one licence by state and licence number',
    description:
      '`verified` is true when a licence with that state and number is on file, whatever its status (`licensee.status` says ' +
      'whether it is active). A miss is 200 with `verified: false` and `licensee: null`. `verdict` and `reasons` say what to make ' +
      'of it (docs/verdicts.md); with `name` (or `first_name` and `last_name`), `name_match` says whether the holder is who was named. ' +
      'Each answer is recorded in the account\'s verification log (`Verification-Id`).',
    tags,
    query: VerifyQuery,
    response: VerifyResponse,
    responseHeaders: { 'Verification-Id': VERIFICATION_ID },
    handler: async ({ query }, req, res) => {
      const answer = await service.verify(query);
      if (record) await recordBeforeSending(req, res, answer, (caller, served) => record(caller, 'verify', [{ index: null, asked: query, answer }], served));
      return answer;
    },
  });
  route(ctx, {
    method: 'post',
    path: '/api/v1/licensees/batch',
    operationId: 'batchVerifyLicenses',
    metered: 'paid',
    summary: 'Verify 1 to 100 licences in one call (paid plans)',
    description:
      'Results come in input order, each echoing `state` and `license_number` exactly as sent and its `index` in the request; ' +
      'misses are inline with `verified: false`. Items take a name as verify does. `verdict=consider,not_found` returns only the ' +
      'results with those verdicts (every item is still verified and recorded). One metered request per call.',
    tags,
    query: BatchVerifyQuery,
    body: BatchVerifyRequest,
    response: BatchVerifyResponse,
    responseHeaders: { 'Verification-Id': VERIFICATION_ID },
    errors: [413],
    handler: async ({ body, query }, req, res) => {
      const results = await service.batch(body.licenses);
      const wanted = query.verdict;
      const out = { data: wanted ? results.filter((r) => wanted.includes(r.verdict)) : results };
      if (record) {
        const items = results.map((answer, i) => ({ index: i, asked: body.licenses[i], answer }));
        await recordBeforeSending(req, res, out, (caller, served) => record(caller, 'batch', items, served));
      }
      return out;
    },
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/licensees/:state/:license_number',
    operationId: 'getLicensee',
    metered: 'lookup',
    summary: 'Read one licensee record',
    tags,
    params: LicensePath,
    response: LicenseeResponse,
    errors: [404],
    handler: async ({ params }) => ({ data: await service.get(params) }),
  });
}
