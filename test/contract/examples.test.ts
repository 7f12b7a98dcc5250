import pino from 'pino';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { AppDeps } from '../../src/app.js';
import { compose, noMail, type Root } from '../../src/compose/index.js';
import { demoAccount, prepareGraph } from '../../src/start-up.js';
import { DEMO_JOB_ID } from '../../src/http/examples.js';
import { undiciTransport } from '../../src/modules/webhooks/undici-transport.js';
import { emptyGraph } from '../helpers/graph.js';
import { servedDocument } from '../helpers/openapi.js';
import { openTestPglite } from '../helpers/stores.js';

// Every operation called with the document's own examples against a demo server, as an outside
// contract tool (Portman, Swagger UI's "Try it out") calls it: the examples must name what
// `npm start` has (seeds/demo and the demo account's fixed ids, src/http/examples.ts).

type Schema = { $ref?: string; example?: unknown; examples?: unknown[] | Record<string, { value: unknown }> };
type Parameter = Schema & { name: string; in: string; required?: boolean; schema?: Schema };
type Operation = {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, Schema & { schema?: Schema }> };
  responses: Record<string, { headers?: Record<string, { description?: string }> }>;
};
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

/**
 * Operations whose examples cannot answer 2xx on a demo server, by design, with the documented
 * status they answer instead.
 */
const NOT_2XX: Record<string, { status: number; why: string }> = {
  cancelVerificationJob: { status: 409, why: 'the demo job has finished by the time it is called, and a finished job cannot be cancelled' },
  redeliverWebhook: {
    status: 404,
    why: 'deliveries come only from imports, to enabled endpoints of accounts that follow or watch; the demo endpoint is disabled, so a demo server has none',
  },
};

/** The example of a parameter, schema or media type: `example`, else the first of `examples`, through a $ref. */
function exampleOf(doc: Document, x: Schema | undefined): unknown {
  if (!x) return undefined;
  if (x.$ref) return exampleOf(doc, doc.components.schemas[x.$ref.replace('#/components/schemas/', '')]);
  if (x.example !== undefined) return x.example;
  if (Array.isArray(x.examples)) return x.examples[0];
  if (x.examples) return Object.values(x.examples)[0]?.value;
  return undefined;
}

/** A metered lookup's answer that names no record: an unverified licence, an empty list, no record, an empty chain. */
const holdsNothing = (b: Record<string, unknown>) =>
  b.verified === false || b.data === null || (Array.isArray(b.data) && b.data.length === 0) || (Array.isArray(b.levels) && b.levels.length === 0);

// No DNS on this machine or in CI: example.com, IANA's documentation domain, gets one of its
// public addresses here; the transport's check of that address is the one production runs.
const lookup = async (hostname: string) => {
  if (hostname === 'example.com') return [{ address: '93.184.215.14', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

describe('the OpenAPI examples on a demo server', () => {
  let root: Root;
  let app: App;
  let key: string;
  let deps: AppDeps;
  beforeAll(async () => {
    // What `npm start` does on an empty data dir (src/serve.ts), on in-memory stores, with no request rate per plan.
    const config = { ...loadConfig({}), RATE_LIMITS: 'off' as const };
    const logger = pino({ level: 'silent' });
    const transport = undiciTransport({ allowPrivate: false, connectTimeoutMs: config.WEBHOOK_CONNECT_TIMEOUT_MS, responseTimeoutMs: config.WEBHOOK_TIMEOUT_MS, lookup });
    root = compose(config, { graph: emptyGraph('ladybug'), store: openTestPglite(), logger, transport, delivers: true, mail: noMail('http://localhost:8000') });
    const [graph, store, side] = await Promise.all([root.graph(), root.store(), root.side()]);
    await prepareGraph(graph.engine, await root.imports(), true, logger);
    deps = await root.services();
    app = (await root.app()) as unknown as App;
    key = (await demoAccount({ accounts: side.accounts, licensees: deps.licensees, jobs: deps.jobs, verifications: deps.verifications }, store, 'http://localhost:8000', () => true))!;
    expect(key).toMatch(/^lvs_live_/);
    // As the server does once it listens: the workers start, and the runner finishes the demo job.
    await (await root.workers()).start();
    await vi.waitFor(async () => expect((await deps.jobs.get((await side.accounts.requireAccount('demo@example.com')).id, DEMO_JOB_ID)).status).toBe('completed'), { timeout: 30_000, interval: 50 });
  });
  afterAll(async () => {
    await (await root?.workers())?.stop();
    await root?.close();
  });

  it('when every operation is called with its documented examples then it answers a documented 2xx with a body its schema allows', async () => {
    const doc = (await request(app).get('/openapi.json').expect(200)).body as Document;
    const operations = Object.entries(doc.paths)
      .filter(([path]) => path === '/health' || path.startsWith('/api/v1/'))
      .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));
    // Deletions remove what other examples name, so they go last; revoking the demo key (which
    // the earlier createApiKey example made possible) last of all: every call is made with it.
    const rank = (o: (typeof operations)[number]) => (o.op.operationId === 'deleteApiKey' ? 2 : o.method === 'delete' ? 1 : 0);
    operations.sort((a, b) => rank(a) - rank(b));

    const problems: string[] = [];
    for (const { path, method, op } of operations) {
      const name = `${method.toUpperCase()} ${path} (${op.operationId})`;
      let url = path;
      const query = new URLSearchParams();
      const missing: string[] = [];
      for (const p of op.parameters ?? []) {
        const value = exampleOf(doc, p) ?? exampleOf(doc, p.schema);
        if (value === undefined) {
          if (p.required) missing.push(`the ${p.in} parameter ${p.name}`);
          continue;
        }
        if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(value)));
        else if (p.in === 'query') query.set(p.name, String(value));
      }
      const media = op.requestBody?.content['application/json'];
      const body = exampleOf(doc, media) ?? exampleOf(doc, media?.schema);
      if (op.requestBody?.required && body === undefined) missing.push('the request body');
      if (missing.length) {
        problems.push(`${name}: no example for ${missing.join(', ')}`);
        continue;
      }

      const target = query.size ? `${url}?${query}` : url;
      let req = request(app)[method as 'get'](target).set('Authorization', `Bearer ${key}`);
      if (body !== undefined) req = req.send(body as object);
      const res = await req;

      const expected = NOT_2XX[op.operationId];
      const documented2xx = Object.keys(op.responses).filter((s) => s.startsWith('2'));
      if (expected ? res.status !== expected.status : !documented2xx.includes(String(res.status))) {
        problems.push(`${name} ${target}: ${res.status}, expected ${expected?.status ?? documented2xx.join(' or ')}: ${JSON.stringify(res.body).slice(0, 300)}`);
        continue;
      }
      // A 200 of another media type (the CSV export) is checked by its Content-Type.
      const media200 = Object.keys((op.responses['200'] as { content?: Record<string, unknown> } | undefined)?.content ?? {});
      const json = res.status !== 200 || media200.includes('application/json');
      if (!json && !media200.some((m) => (res.headers['content-type'] ?? '').startsWith(m))) problems.push(`${name}: ${res.headers['content-type']} is not ${media200.join(' or ')}`);
      const mismatch = json && servedDocument().checkResponse(method, url, res.status, res.body);
      if (mismatch) problems.push(`${name}: ${mismatch}`);
      // A metered lookup documents the monthly quota's RateLimit on its 200: its example must find a demo record.
      if (op.responses['200']?.headers?.RateLimit?.description?.includes('"monthly"') && res.status === 200 && holdsNothing(res.body)) {
        problems.push(`${name} ${target}: answered with no record: ${JSON.stringify(res.body).slice(0, 300)}`);
      }
    }
    expect(problems).toEqual([]);
    expect(operations.length).toBeGreaterThan(30);
  });
});
