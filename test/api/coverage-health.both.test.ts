import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CoverageResponse, SourceItem, SourcesCoverageResponse, StateItem } from '../../src/modules/coverage/coverage.schemas.js';
import { HealthResponse, ReadinessResponse } from '../../src/modules/health/health.routes.js';
import { openGraph } from '../../src/compose/index.js';
import { DEMO_SEEDS, TEST_ENGINE, files, suiteNeo4j, testApp, testGraph, testIndex, testStore, useApp, testConfig } from '../helpers/graph.js';
import { body } from '../helpers/http.js';

describe('health, coverage, states and sources over the demo dataset', () => {
  const t = useApp(DEMO_SEEDS);

  it('when /health is called then it answers ok without touching a store, and says how the search index stands', async () => {
    expect(body(await t.api.get('/health'), HealthResponse).status).toBe('ok');
    await t.api.get('/api/v1/licensees?state=TX&name=a').expect(200);
    expect(body(await request(t.app).get('/health'), HealthResponse)).toEqual({
      status: 'ok',
      search_index: { status: 'ready', catching_up: false, rows: 419, bytes: expect.any(Number), built_from: 'export', last_build: { states: 4, rows: 419, ms: expect.any(Number), read_ms: expect.any(Number), index_ms: expect.any(Number) }, ...(TEST_ENGINE === 'neo4j' ? { generation: 0 } : {}) },
    });
  });

  it('when coverage is read then every state row has counts computed from the data and its coverage notes', async () => {
    const res = body(await t.api.get('/api/v1/coverage'), CoverageResponse);
    const byState = Object.fromEntries(res.states.map((s) => [s.state, s]));
    expect(Object.keys(byState).sort()).toEqual(['CA', 'FL', 'NY', 'TX', 'WA']);
    expect(byState.TX).toMatchObject({ status: 'active', refresh_frequency: 'nightly', relationship_coverage: 'verified_graph', record_count: 150 });
    expect(byState.TX.active_record_count).toBe(105);
    expect(byState.CA.relationship_coverage).toBe('verified_graph_partial');
    expect(byState.NY.relationship_coverage).toBe('source_context_only');
    expect(byState.NY.relationship_coverage_notes).toMatch(/business name/i);
    expect(byState.WA).toMatchObject({ status: 'planned', relationship_coverage: 'not_yet_ingested', record_count: 0, last_updated: null });
    expect(Date.parse(byState.TX.last_updated!)).not.toBeNaN();
  });

  it('when states are listed then only active jurisdictions come back', async () => {
    const states = body(await t.api.get('/api/v1/states'), z.array(StateItem));
    expect(states.map((s) => s.code)).toEqual(['CA', 'FL', 'NY', 'TX']);
    expect(states.find((s) => s.code === 'TX')).toMatchObject({ name: 'Texas', record_count: 150 });
  });

  it('when sources are listed then each state has its source with the last import', async () => {
    const sources = body(await t.api.get('/api/v1/sources'), z.array(SourceItem));
    const tx = sources.find((s) => s.state === 'TX')!;
    expect(tx).toMatchObject({ id: 'tx-trec', name: 'Texas Real Estate Commission', last_import_rows: 150 });
    expect(sources.find((s) => s.state === 'WA')?.last_import_at).toBeNull();
  });

  it('when sources coverage is read then totals add up over the states', async () => {
    const res = body(await t.api.get('/api/v1/sources/coverage'), SourcesCoverageResponse);
    expect(res.totals.record_count).toBe(419);
    expect(res.totals.jurisdictions).toBe(5);
    expect(res.totals.by_relationship_coverage).toMatchObject({ verified_graph: 2, verified_graph_partial: 1 });
    expect(res.states.find((s) => s.state === 'FL')?.source?.id).toBe('fl-dbpr');
  });

  it('when the graph answers then readiness is ready with the graph check', async () => {
    const res = body(await t.api.get('/api/v1/readiness'), ReadinessResponse);
    expect(res.status).toBe('ready');
    expect(res.checks.graph.status).toBe('ok');
  });
});

describe('readiness when a store is gone', () => {
  it('when the graph engine is closed then readiness answers 503 naming the graph', async () => {
    const { graph } = await testGraph();
    const side = await testStore();
    const { key } = await side.accounts.createAccount({ email: 'r@example.com', plan: 'starter' });
    const app = testApp(graph, side);
    const auth = { Authorization: `Bearer ${key.key}` };
    await graph.close();
    const res = await request(app).get('/api/v1/readiness').set(auth);
    const parsed = body(res, ReadinessResponse.extend({ detail: z.string() }), 503);
    expect(parsed.status).toBe('not_ready');
    expect(parsed.checks.graph.status).toBe('failing');
    expect(parsed.detail).toMatch(/graph/);
    // A licence lookup on a closed engine is a 503 with a clear detail, never a stack trace.
    const lookup = await request(app).get('/api/v1/licensees/TX/1').set(auth);
    expect(lookup.status).toBe(503);
    expect(lookup.body).toEqual({ detail: 'the graph store could not answer; retry shortly' });
    await side.store.close();
  });

  it('when the server warms the graph up then readiness waits for the reads, and names the warm-up while the graph cannot be read', async () => {
    const { graph } = await testGraph(DEMO_SEEDS);
    const side = await testStore();
    const { key } = await side.accounts.createAccount({ email: 'w@example.com', plan: 'starter' });
    const auth = { Authorization: `Bearer ${key.key}` };
    const app = testApp(graph, side, { GRAPH_WARM_UP_READS: 300 });
    let res = await request(app).get('/api/v1/readiness').set(auth);
    for (let i = 0; i < 100 && res.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 200));
      res = await request(app).get('/api/v1/readiness').set(auth);
    }
    const ready = body(res, ReadinessResponse);
    expect(ready.checks.warm_up.status).toBe('ok');
    // On a graph that cannot be read the warm-up fails, and readiness says so until it succeeds.
    await graph.close();
    const cold = testApp(graph, side, { GRAPH_WARM_UP_READS: 10 });
    const parsed = body(await request(cold).get('/api/v1/readiness').set(auth), ReadinessResponse.extend({ detail: z.string() }), 503);
    expect(parsed.checks.warm_up.status).toBe('failing');
    await side.store.close();
  });

  it('when the accounts store is closed then readiness answers 503 naming it and keys cannot be checked', async () => {
    const { graph } = await testGraph();
    const side = await testStore();
    const { key } = await side.accounts.createAccount({ email: 'r2@example.com', plan: 'starter' });
    const app = testApp(graph, side);
    const auth = { Authorization: `Bearer ${key.key}` };
    expect((await request(app).get('/api/v1/readiness').set(auth)).status).toBe(200);
    await side.store.close();
    await new Promise((r) => setTimeout(r, 1100)); // past the key cache
    const res = await request(app).get('/api/v1/readiness').set(auth);
    expect(res.status).toBe(503);
    await graph.close();
  });
});

describe.skipIf(TEST_ENGINE !== 'neo4j')('more requests than the Neo4j pool serves', () => {
  it('when no connection frees within the acquisition timeout then the request is a 503 with Retry-After, not a 500, and the next one is served', async () => {
    const target = suiteNeo4j();
    const graph = await openGraph(testConfig({ graphPath: ':memory:', GRAPH_BUFFER_POOL_MB: 64, GRAPH_CONNECTIONS: 1, GRAPH_QUERY_TIMEOUT_MS: 60_000, NEO4J_URI: target.uri, NEO4J_USER: target.user, NEO4J_PASSWORD: target.password, NEO4J_POOL_SIZE: 1, NEO4J_ACQUISITION_TIMEOUT_MS: 50 }), files);
    const side = await testStore();
    try {
      const { key } = await side.accounts.createAccount({ email: 'busy@example.com', plan: 'enterprise' });
      const app = testApp(graph, side);
      // The search index built, and its poll of the graph's version stopped: the pool's one connection is the requests'.
      // Its first build may find the pool's one connection taken by a reader beat past the 50 ms
      // timeout on a busy machine: a failed build is tried again.
      const index = testIndex(graph);
      await expect.poll(() => index.current().then(() => 'built', (err) => String(err)), { timeout: 60_000, interval: 500 }).toBe('built');
      index.close();
      const auth = { Authorization: `Bearer ${key.key}` };
      // Holds the pool's one connection for a while (seconds of Neo4j's CPU). A reader beat may hold
      // it for a moment as the read asks: then the read fails at once, and is started again.
      let long: Promise<unknown>;
      for (;;) {
        long = graph.engine.read('UNWIND range(1, 20000000) AS x RETURN sum(x) AS s');
        const early = await Promise.race([long.then(() => 'ended', () => 'failed'), new Promise((r) => setTimeout(() => r('running'), 200))]);
        if (early === 'running') break;
        expect(early).toBe('failed');
      }
      const res = await request(app).get('/api/v1/licensees/TX/763827-SA').set(auth);
      expect(res.headers['retry-after']).toBe('1');
      expect(body(res, z.object({ detail: z.string() }), 503)).toEqual({ detail: 'the service is at capacity: retry in a second' });
      await long;
      expect([200, 404]).toContain((await request(app).get('/api/v1/licensees/TX/763827-SA').set(auth)).status);
    } finally {
      await graph.close();
      await side.store.close();
    }
  });
});

describe.skipIf(TEST_ENGINE === 'neo4j')('more requests than the service serves at once', () => {
  it('when requests pass the concurrency and the queue then the excess is shed at once and the late ones after their wait, with Retry-After; then it answers normally', async () => {
    const graph = await openGraph(testConfig({ graphPath: ':memory:', GRAPH_BUFFER_POOL_MB: 64, GRAPH_CONNECTIONS: 1, GRAPH_QUERY_TIMEOUT_MS: 60_000 }), files);
    const side = await testStore();
    try {
      const { key } = await side.accounts.createAccount({ email: 'crowd@example.com', plan: 'enterprise' });
      const app = testApp(graph, side, { MAX_CONCURRENT_REQUESTS: 1, MAX_WAITING_REQUESTS: 1, REQUEST_WAIT_TIMEOUT_MS: 100 });
      const auth = { Authorization: `Bearer ${key.key}` };
      const lookup = () => request(app).get('/api/v1/licensees/TX/1').set(auth);
      // The graph's one connection is held (hundreds of milliseconds of LadybugDB's CPU): the request let in waits for it.
      const long = graph.engine.read('UNWIND range(1, 300000) AS x RETURN sum(x) AS s');
      const answers = await Promise.all([lookup(), lookup(), lookup()]);
      await long;
      // One served (a miss: the graph is empty), one shed for the full queue, one after waiting 100 ms.
      expect(answers.map((r) => r.status).sort()).toEqual([404, 503, 503]);
      for (const shed of answers.filter((r) => r.status === 503)) {
        expect(shed.headers['retry-after']).toBe('1');
        expect(body(shed, z.object({ detail: z.string() }), 503)).toEqual({ detail: 'the service is at capacity: retry in a second' });
      }
      for (let i = 0; i < 3; i++) expect((await lookup()).status).toBe(404);
    } finally {
      await graph.close();
      await side.store.close();
    }
  });
});
