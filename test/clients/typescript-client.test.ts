import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LvsApiError, LvsClient } from '../../clients/typescript/src/index.js';
import { DEFAULT_RATE_LIMITS } from '../../src/domain/plans.js';
import { listen } from '../../src/http/server.js';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';
import { createApp } from '../../src/app.js';
import type { SideServices } from '../../src/compose/index.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { fixture, testApp, testGraph, testServices, testStore } from '../helpers/graph.js';
import { LicenseeListResponse } from '../../src/modules/licensees/licensees.schemas.js';
import { AffiliatesResponse } from '../../src/modules/relationships/relationships.schemas.js';
import { body } from '../helpers/http.js';

// A state of 250 licensees, the first 120 sponsored by one brokerage: written from the documented layout.
const ROWS = 250;
const AFFILIATES = 120;
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-client-fixture-'));
const HEADER = fs.readFileSync(path.join(fixture('small'), 'credentials.csv'), 'utf8').split('\n')[0];
const credential = (number: string, type: string, name: string, entity: string) =>
  `NV,${number},${type},${type},Active,,${entity},${name},,,,,${entity === 'business' ? name : ''},2010-01-01,2028-01-31,mailing,1 Main St,,Reno,,NV,89501,US,,k-${number},fixture,2026-11-01,2026-11-01T06:00:00Z,`;
fs.writeFileSync(
  path.join(folder, 'credentials.csv'),
  [HEADER, credential('B.0000001', 'brokerage', 'SIERRA HOMES LLC', 'business'), ...Array.from({ length: ROWS - 1 }, (_, i) => credential(`S.${String(i + 1).padStart(7, '0')}`, 'salesperson', `AGENT ${String(i + 1).padStart(3, '0')} PEREZ`, 'person'))].join('\n') + '\n',
);
fs.writeFileSync(
  path.join(folder, 'jurisdictions.csv'),
  'state,status,refresh_frequency,relationship_coverage,relationship_coverage_notes,source_id,source_name,source_url,source_format\nNV,active,weekly,verified_graph,Sponsors are published.,nv-fixture,Nevada fixture,https://example.com/,csv\n',
);
fs.writeFileSync(
  path.join(folder, 'relationships.csv'),
  ['supervisor_state,supervisor_license_number,affiliate_state,affiliate_license_number,affiliate_role,relationship_type,effective_from,effective_to,source', ...Array.from({ length: AFFILIATES }, (_, i) => `NV,B.0000001,NV,S.${String(i + 1).padStart(7, '0')},salesperson,sponsoring_broker,2020-01-01,,fixture`)].join('\n') + '\n',
);

describe('the TypeScript client (clients/typescript) against the service', () => {
  const t = {} as { graph: GraphAdapters; side: SideServices; deps: ReturnType<typeof testServices>; api: TestAgent; key: string };
  let server: Server;
  let client: LvsClient;
  let base: string;
  beforeAll(async () => {
    t.graph = (await testGraph(fixture('small'), folder)).graph;
    t.side = await testStore();
    t.deps = testServices(t.graph, t.side);
    const app = createApp(t.deps);
    t.key = (await t.side.accounts.createAccount({ email: 'client@example.com', plan: 'enterprise' })).key.key;
    t.api = request.agent(app).set('Authorization', `Bearer ${t.key}`);
    await t.deps.jobRunner.start();
    server = await listen(app as never, { port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = new LvsClient({ baseUrl: base, apiKey: t.key });
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await t.deps?.jobRunner.stop();
    await t.graph?.close();
    await t.side?.store.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('when the search iterator walks a 250-row result in small pages then it yields every row once, in the order of the API\'s pages', async () => {
    const expected: string[] = [];
    for (let page = 1; page <= 3; page++) {
      expected.push(...body(await t.api.get(`/api/v1/licensees?state=NV&per_page=100&page=${page}`), LicenseeListResponse).data.map((l) => l.id));
    }
    const seen: string[] = [];
    for await (const licensee of client.search({ state: 'NV', per_page: 7 })) seen.push(licensee.id);
    expect(seen).toHaveLength(ROWS);
    expect(new Set(seen).size).toBe(ROWS);
    expect(seen).toEqual(expected);
  });

  it('when the affiliates iterator walks a brokerage\'s roster then it yields each affiliate once', async () => {
    const expected = body(await t.api.get('/api/v1/licensees/NV/B.0000001/affiliates?per_page=100&page=2'), AffiliatesResponse).data.map((a) => a.license_number);
    const seen: string[] = [];
    for await (const a of client.affiliates('NV', 'B.0000001', { per_page: 11 })) seen.push(a.license_number);
    expect(seen).toHaveLength(AFFILIATES);
    expect(new Set(seen).size).toBe(AFFILIATES);
    expect(seen.slice(100)).toEqual(expected);
  });

  it('when a request is invalid then a typed error carries the 422 detail and the X-Request-ID', async () => {
    const err = await client.api.searchLicensees({ state: 'NV', per_page: 500 }, { headers: { 'X-Request-ID': 'client-test-422' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LvsApiError);
    const problem = err as LvsApiError;
    expect(problem.status).toBe(422);
    expect(problem.requestId).toBe('client-test-422');
    expect(problem.detail).toEqual([expect.objectContaining({ loc: ['query', 'per_page'], type: expect.any(String) })]);
    expect(problem.message).toMatch(/^GET \/api\/v1\/licensees answered 422: query\.per_page: .+ \(X-Request-ID client-test-422\)$/);
  });

  it('when a licence is unknown then the typed error is a 404 with the API\'s sentence', async () => {
    const err = (await client.api.getLicensee('NV', 'NOPE-1').catch((e: unknown) => e)) as LvsApiError;
    expect(err).toBeInstanceOf(LvsApiError);
    expect(err.status).toBe(404);
    expect(typeof err.detail).toBe('string');
  });

  it('when a CSV roster is uploaded then the job helpers wait for it with progress and stream every result row', async () => {
    const csv = ['state,license_number', ...Array.from({ length: 30 }, (_, i) => `NV,S.${String(i + 1).padStart(7, '0')}`), 'NV,S.9999999'].join('\n');
    const job = await client.submitJob(csv, { label: 'client roster' });
    expect(job).toMatchObject({ label: 'client roster', format: 'csv', rows_total: 31 });
    const progress: number[] = [];
    const done = await client.waitForJob(job.id, { intervalMs: 50, onProgress: (j) => progress.push(j.rows_done) });
    expect(done).toMatchObject({ status: 'completed', rows_done: 31 });
    expect(progress.at(-1)).toBe(31);
    const rows = [];
    for await (const row of client.jobResults(job.id, { per_page: 8 })) rows.push(row);
    expect(rows.map((r) => r.license_number)).toEqual(csv.split('\n').slice(1).map((l) => l.split(',')[1]));
    expect(rows.at(-1)).toMatchObject({ verdict: 'not_found' });
  });

  it('when the account is over its request rate then the 429 is sent again after its Retry-After, and with no retries left it is thrown with its Retry-After', async () => {
    const limits = { ...DEFAULT_RATE_LIMITS, starter: { perSecond: 1, burst: 1 } };
    const side = await testStore({ RATE_LIMITS: limits });
    const limited = await listen(testApp(t.graph, side, { RATE_LIMITS: limits }) as never, { port: 0, host: '127.0.0.1' });
    try {
      const key = (await side.accounts.createAccount({ email: 'client-rate@example.com', plan: 'starter' })).key.key;
      const statuses: number[] = [];
      const counting: typeof fetch = async (input, init) => {
        const res = await fetch(input, init);
        statuses.push(res.status);
        return res;
      };
      const url = `http://127.0.0.1:${(limited.address() as AddressInfo).port}`;
      const rated = new LvsClient({ baseUrl: url, apiKey: key, fetch: counting });
      const first = await rated.api.verifyLicense({ state: 'NV', license_number: 'S.0000001' });
      const second = await rated.api.verifyLicense({ state: 'NV', license_number: 'S.0000002' });
      expect([first.data.verdict, second.data.verdict]).toEqual(['clear', 'clear']);
      expect(statuses[0]).toBe(200);
      expect(statuses.slice(1)).toContain(429);
      expect(statuses.at(-1)).toBe(200);

      const noRetries = new LvsClient({ baseUrl: url, apiKey: key, maxRetries: 0 });
      await noRetries.api.verifyLicense({ state: 'NV', license_number: 'S.0000003' }).catch(() => undefined);
      const refused = (await noRetries.api.verifyLicense({ state: 'NV', license_number: 'S.0000003' }).catch((e: unknown) => e)) as LvsApiError;
      expect(refused).toBeInstanceOf(LvsApiError);
      expect(refused).toMatchObject({ status: 429, body: { limit: 'rate' } });
      expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    } finally {
      await new Promise<void>((resolve) => limited.close(() => resolve()));
      await side.store.close();
    }
  });
});
