import { route, type RouteContext } from '../../http/route.js';
import { z } from '../../http/zod.js';
import { CoverageResponse, SourceItem, SourcesCoverageResponse, StateItem } from './coverage.schemas.js';
import type { CoverageService } from './coverage.service.js';

export function coverageRoutes(
  ctx: RouteContext, service: CoverageService) {
  const tags = ['Coverage'];
  route(ctx, {
    method: 'get',
    path: '/api/v1/coverage',
    operationId: 'getCoverage',
    public: true,
    summary: 'Coverage per jurisdiction (public, no key)',
    description: 'Record counts and last refresh are computed from the data at every import.',
    tags,
    response: CoverageResponse,
    handler: () => service.coverage(),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/states',
    operationId: 'listStates',
    summary: 'Supported, active jurisdictions',
    tags,
    response: z.array(StateItem),
    handler: () => service.states(),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/sources',
    operationId: 'listSources',
    summary: 'Configured upstream sources, one per state, with their last import',
    tags,
    response: z.array(SourceItem),
    handler: () => service.sources(),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/sources/coverage',
    operationId: 'getSourcesCoverage',
    summary: 'Coverage with sources and totals',
    tags,
    response: SourcesCoverageResponse,
    handler: () => service.sourcesCoverage(),
  });
}
