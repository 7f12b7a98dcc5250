import { route, type RouteContext } from '../../http/route.js';
import { LicensePath } from '../licensees/licensees.schemas.js';
import {
  AffiliatesQuery,
  AffiliatesResponse,
  AffiliationsQuery,
  AffiliationsResponse,
  HierarchyPath,
  HierarchyQuery,
  HierarchyResponse,
  SupervisorPath,
  SupervisorsQuery,
  SupervisorsResponse,
} from './relationships.schemas.js';
import type { RelationshipsService } from './relationships.service.js';

export function relationshipsRoutes(
  ctx: RouteContext, service: RelationshipsService) {
  const tags = ['Relationships'];
  route(ctx, {
    method: 'get',
    path: '/api/v1/licensees/:state/:license_number/affiliations',
    operationId: 'listAffiliations',
    metered: 'lookup',
    summary: 'Supervision history of a licence, with effective dates',
    description:
      'A relationship is in force on day d when effective_from <= d < effective_to (open while effective_to is null). ' +
      'Without as_of: the open relationships, or all with include_inactive=true. With as_of: those in force that day, plus ' +
      'those that had ended by then with include_inactive=true. Newest first.',
    tags,
    params: LicensePath,
    query: AffiliationsQuery,
    response: AffiliationsResponse,
    errors: [404],
    handler: async ({ params, query }) => ({ data: await service.affiliations(params, query) }),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/licensees/:state/:license_number/supervisors',
    operationId: 'listSupervisors',
    metered: 'lookup',
    summary: 'Current supervisors of a licence',
    description: 'All open supervising relationships; `data` is empty (200) when none are on file.',
    tags,
    params: LicensePath,
    query: SupervisorsQuery,
    response: SupervisorsResponse,
    errors: [404],
    handler: async ({ params, query }) => ({ data: await service.supervisors(params, query) }),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/licensees/:state/:license_number/affiliates',
    operationId: 'listAffiliates',
    metered: 'lookup',
    summary: 'Current affiliates of a supervising licence',
    description: 'Paged, ordered like search results, with an exact total.',
    tags,
    params: SupervisorPath,
    query: AffiliatesQuery,
    response: AffiliatesResponse,
    errors: [404],
    handler: ({ params, query }) => service.affiliates(params, query, query.page, query.per_page),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/license-credentials/:credential_id/hierarchy',
    operationId: 'getCredentialHierarchy',
    metered: 'lookup',
    summary: 'The supervisor chain of a credential, walked upward',
    description:
      'Open supervising relationships walked upward level by level, cycle-safe and bounded by max_depth; `terminated_by` ' +
      'says whether the walk reached the top, met a cycle or hit the bound.',
    tags,
    params: HierarchyPath,
    query: HierarchyQuery,
    response: HierarchyResponse,
    errors: [404],
    handler: ({ params, query }) => service.hierarchy(params.credential_id, query.max_depth),
  });
}
