import type { Request } from 'express';
import type { LegacyService } from './legacy.service.js';
import { PageParam, PaginationMeta, PerPageParam, StateCode, anyCase, searchText } from '../../http/common.schemas.js';
import { route, type RouteContext } from '../../http/route.js';
import { DEMO_FIRST_NAME, DEMO_LAST_NAME } from '../../http/examples.js';
import { z } from '../../http/zod.js';
import { LicensePath, LicenseTypeFilter, LicenseeListResponse, StatusFilter } from '../licensees/licensees.schemas.js';
import type { LicenseesService } from '../licensees/licensees.service.js';
import { SingleSupervisorResponse } from '../relationships/relationships.schemas.js';
import type { RelationshipsService } from '../relationships/relationships.service.js';

const LegacySearchQuery = z
  .object({
    first_name: searchText('Substring of the first name; this or last_name (or both) is required').openapi({ example: DEMO_FIRST_NAME }),
    last_name: searchText('Substring of the last name; this or first_name (or both) is required').openapi({ example: DEMO_LAST_NAME }),
    state: StateCode.optional().openapi({ description: 'Two-letter state code; all jurisdictions when absent' }),
    page: PageParam,
    per_page: PerPageParam,
  })
  .refine((q) => q.first_name?.trim() || q.last_name?.trim(), { message: 'give first_name or last_name', path: ['last_name'] });

export const RawLicense = z
  .object({
    id: z.string(),
    state: z.string(),
    license_number: z.string(),
    license_number_display: z.string().nullable(),
    license_type_normalized: z.string().nullable(),
    license_type_display: z.string().nullable(),
    status: z.string().nullable(),
    status_normalized: z.string().nullable(),
    entity_type: z.string().nullable(),
    full_name: z.string().nullable(),
    first_name: z.string().nullable(),
    middle_name: z.string().nullable(),
    last_name: z.string().nullable(),
    suffix: z.string().nullable(),
    business_name: z.string().nullable(),
    issue_date: z.string().nullable(),
    expiration_date: z.string().nullable(),
    address: z.object({ kind: z.string() }).passthrough().nullable(),
    source: z.string().nullable(),
    snapshot_date: z.string().nullable(),
    last_verified: z.string().nullable(),
  })
  .openapi('RawLicense', { description: 'The lower-level normalized licence shape' });

const LicensesSearchQuery = z.object({
  state: StateCode,
  name: searchText('Every term must appear in the full, first, last or business name'),
  license_number: z.string().max(128).optional().openapi({ description: 'Prefix of the canonical licence number' }),
  status: anyCase(StatusFilter).optional(),
  license_type: anyCase(LicenseTypeFilter).optional(),
  page: PageParam,
  per_page: PerPageParam,
});

const TypeCountsQuery = z.object({
  state: StateCode.optional().openapi({ description: 'One state; every jurisdiction on file when absent' }),
});
const TypeCountsResponse = z
  .object({
    data: z.array(z.object({ state: z.string(), license_type: z.string().nullable(), count: z.number().int() })),
  })
  .openapi('LicenseTypeCounts');

/**
 * The canonical search for the request at hand: the parameters both searches take, as sent. The
 * canonical search needs a state, so without one it is the bare path.
 */
function searchUrl(req: Request, shared: string[]): string {
  const query = new URLSearchParams();
  for (const name of shared) {
    const value = req.query[name];
    if (typeof value === 'string') query.set(name, value);
  }
  return query.has('state') ? `/api/v1/licensees?${query}` : '/api/v1/licensees';
}

/** The canonical record path of the licence in the request's path. */
const licenseeUrl = (req: Request) =>
  `/api/v1/licensees/${encodeURIComponent(String(req.params.state))}/${encodeURIComponent(String(req.params.license_number))}`;

export function legacyRoutes(
  ctx: RouteContext,
  deps: { licensees: LicenseesService; relationships: RelationshipsService; legacy: LegacyService; jurisdictionCodes: () => Promise<string[]> },
) {
  const tags = ['Legacy'];
  route(ctx, {
    method: 'get',
    path: '/api/v1/licensees/search',
    operationId: 'legacySearchLicensees',
    metered: 'lookup',
    summary: 'Legacy search by first and last name',
    description: 'Deprecated: use GET /api/v1/licensees. Give `first_name`, `last_name` or both: with neither, 422. Without `state` every jurisdiction is searched, ordered by state first.',
    tags,
    deprecated: { successor: (req) => searchUrl(req, ['state', 'first_name', 'last_name', 'page', 'per_page']) },
    query: LegacySearchQuery,
    response: LicenseeListResponse,
    handler: async ({ query }) =>
      deps.licensees.search({ ...query, states: query.state ? [query.state] : await deps.jurisdictionCodes() }),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/licensees/:state/:license_number/supervisor',
    operationId: 'legacyGetSupervisor',
    metered: 'lookup',
    summary: 'Legacy: the single current supervisor',
    description: 'Deprecated: use /supervisors, which lists every open relationship. `data` is null when none is on file.',
    tags,
    deprecated: { successor: (req) => `${licenseeUrl(req)}/supervisors` },
    params: LicensePath,
    response: SingleSupervisorResponse,
    errors: [404],
    handler: async ({ params }) => ({ data: await deps.relationships.supervisor(params) }),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/licenses/search',
    operationId: 'searchLicenses',
    metered: 'lookup',
    summary: 'Lower-level search returning the raw normalized licence shape',
    description: 'Deprecated: use GET /api/v1/licensees. Same order and paging as the canonical search.',
    tags,
    deprecated: { successor: (req) => searchUrl(req, ['state', 'name', 'status', 'license_type', 'page', 'per_page']) },
    query: LicensesSearchQuery,
    response: z.object({ data: z.array(RawLicense), meta: PaginationMeta }).openapi('RawLicenseList'),
    handler: ({ query }) => deps.legacy.searchRaw(query),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/licenses/license-type-counts',
    operationId: 'countLicensesByType',
    metered: 'lookup',
    summary: 'Credential counts by state and normalized licence type',
    tags,
    query: TypeCountsQuery,
    response: TypeCountsResponse,
    handler: async ({ query }) => ({
      data: await deps.legacy.typeCounts(query.state ? [query.state] : await deps.jurisdictionCodes()),
    }),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/licenses/:state/:license_number',
    operationId: 'getLicense',
    metered: 'lookup',
    summary: 'Lower-level lookup returning the raw normalized licence shape',
    description: 'Deprecated: use GET /api/v1/licensees/{state}/{license_number}.',
    tags,
    deprecated: { successor: licenseeUrl },
    params: LicensePath,
    response: z.object({ data: RawLicense }).openapi('RawLicenseResponse'),
    errors: [404],
    handler: async ({ params }) => ({ data: await deps.legacy.getRaw(params) }),
  });
}
