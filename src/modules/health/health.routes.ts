import { route, type RouteContext } from '../../http/route.js';
import { z } from '../../http/zod.js';
import type { SearchIndexStatus } from '../../search/search-port.js';
import type { Readiness } from './health.service.js';

const SearchIndexHealth = z
  .object({
    status: z.enum(['ready', 'building']).describe('`building` until the first index is built: searches answer 503 with `Retry-After` meanwhile'),
    catching_up: z.boolean().describe('The index is being brought up to a publish or an import: searches of the states it reads again may answer 503 with `Retry-After`'),
    generation: z.number().int().optional().describe('The graph generation its rows show (Neo4j)'),
    rows: z.number().int(),
    bytes: z.number().int().describe('Memory its arrays and texts hold'),
    built_from: z.enum(['snapshot', 'export', 'load']).optional().describe('A file kept at the last clean stop, an export of the graph, or the rows an offline load left'),
    last_build: z
      .object({
        states: z.number().int(),
        rows: z.number().int(),
        changed: z.number().int().optional().describe('Present when the build patched the states: the rows it read again from the graph, those the publishes since the last build changed (Neo4j)'),
        prebuilt: z.boolean().optional().describe('A patch: whether its changed rows came indexed by the refresh that wrote them (one publish behind, Neo4j), rather than indexed here'),
        ms: z.number().int().describe('Until the index served the rows: for a patch, once its changed rows were indexed beside the rest (before `merge_ms`)'),
        read_ms: z.number().int().optional().describe('Of `ms`, the time until its rows were read from the graph (the export, or the changed rows); the rest is the build'),
        index_ms: z.number().int().optional().describe('Of `ms`, the time the index took to build from those rows (for a patch, the changed rows alone); the rest is handing it over'),
        merge_ms: z.number().int().optional().describe('A patch: the time after `ms` its rows took to be merged into the index (searches were served meanwhile)'),
      })
      .optional()
      .describe('The last build: the states it read again (only those whose rows moved, on Neo4j), their rows, and how long it took'),
  })
  .openapi('SearchIndexHealth');
export const HealthResponse = z
  .object({ status: z.literal('ok'), search_index: SearchIndexHealth.optional() })
  .passthrough()
  .openapi('Health');
const CheckResult = z.object({ status: z.enum(['ok', 'failing']), latency_ms: z.number(), error: z.string().optional() });
export const ReadinessResponse = z
  .object({ status: z.enum(['ready', 'not_ready']), checks: z.record(z.string(), CheckResult) })
  .passthrough()
  .openapi('Readiness');

export function healthRoutes(ctx: RouteContext, readiness: Readiness, searchIndex: () => SearchIndexStatus) {
  route(ctx, {
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    public: true,
    summary: 'Liveness: the process answers; whether its search index is ready',
    description: 'Always 200 while the process answers. `search_index.status` tells orchestrators whether searches are served yet, without an API key.',
    tags: ['Health'],
    response: HealthResponse,
    handler: () => ({ status: 'ok' as const, search_index: searchIndex() }),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/readiness',
    operationId: 'getReadiness',
    summary: 'Readiness: every store the service uses answers',
    description: '503 with the same body shape, naming the failing store, when one does not answer.',
    tags: ['Health'],
    response: ReadinessResponse,
    errors: [503],
    errorSchemas: { 503: ReadinessResponse.extend({ detail: z.string() }).openapi('ReadinessFailure') },
    handler: async (_input, _req, res) => {
      const { failing, ...body } = await readiness();
      if (!failing.length) return body;
      res.status(503);
      return { ...body, detail: `not ready: ${failing.join(', ')} failing` };
    },
  });
}
