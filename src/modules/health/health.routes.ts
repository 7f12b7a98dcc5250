import { route, type RouteContext } from '../../http/route.js';
import { z } from '../../http/zod.js';
import type { Readiness } from './health.service.js';

const HealthResponse = z.object({ status: z.literal('ok') }).passthrough().openapi('Health');
const CheckResult = z.object({ status: z.enum(['ok', 'failing']), latency_ms: z.number(), error: z.string().optional() });
export const ReadinessResponse = z
  .object({ status: z.enum(['ready', 'not_ready']), checks: z.record(z.string(), CheckResult) })
  .passthrough()
  .openapi('Readiness');

export function healthRoutes(ctx: RouteContext, readiness: Readiness) {
  route(ctx, {
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    public: true,
    summary: 'Liveness: the process answers',
    tags: ['Health'],
    response: HealthResponse,
    handler: () => ({ status: 'ok' as const }),
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
