import { route, type RouteContext } from '../../http/route.js';
import { z } from '../../http/zod.js';

export interface ReadinessCheck {
  name: string;
  check: () => Promise<void>;
}

const HealthResponse = z.object({ status: z.literal('ok') }).passthrough().openapi('Health');
const CheckResult = z.object({ status: z.enum(['ok', 'failing']), latency_ms: z.number(), error: z.string().optional() });
export const ReadinessResponse = z
  .object({ status: z.enum(['ready', 'not_ready']), checks: z.record(z.string(), CheckResult) })
  .passthrough()
  .openapi('Readiness');

export function healthRoutes(
  ctx: RouteContext, checks: ReadinessCheck[], timeoutMs = 2000) {
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
    handler: async (_input, _req, res) => {
      const results = await Promise.all(
        checks.map(async ({ name, check }) => {
          const started = performance.now();
          try {
            await Promise.race([
              check(),
              new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs).unref()),
            ]);
            return [name, { status: 'ok' as const, latency_ms: Math.round((performance.now() - started) * 10) / 10 }] as const;
          } catch (err) {
            return [
              name,
              { status: 'failing' as const, latency_ms: Math.round(performance.now() - started), error: (err as Error).message },
            ] as const;
          }
        }),
      );
      const failing = results.filter(([, r]) => r.status === 'failing').map(([n]) => n);
      const body = { status: failing.length ? ('not_ready' as const) : ('ready' as const), checks: Object.fromEntries(results) };
      if (!failing.length) return body;
      res.status(503);
      return { ...body, detail: `not ready: ${failing.join(', ')} failing` };
    },
  });
}
