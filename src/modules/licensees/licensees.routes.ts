import { route, type RouteContext } from '../../http/route.js';
import {
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

export function licenseesRoutes(
  ctx: RouteContext, service: LicenseesService) {
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
      'whether it is active). A miss is 200 with `verified: false` and `licensee: null`.',
    tags,
    query: VerifyQuery,
    response: VerifyResponse,
    handler: ({ query }) => service.verify(query),
  });
  route(ctx, {
    method: 'post',
    path: '/api/v1/licensees/batch',
    operationId: 'batchVerifyLicenses',
    metered: 'paid',
    summary: 'Verify 1 to 100 licences in one call (paid plans)',
    description:
      'Results come in input order, each echoing `state` and `license_number` exactly as sent; misses are inline with ' +
      '`verified: false`. One metered request per call.',
    tags,
    body: BatchVerifyRequest,
    response: BatchVerifyResponse,
    errors: [413],
    handler: async ({ body }) => ({ data: await service.batch(body.licenses) }),
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
