import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.js';
import { compose, noMail, refreshOf, type SideServices } from '../../src/compose/index.js';
import type { Config } from '../../src/config.js';
import { DEFAULT_RATE_LIMITS } from '../../src/domain/plans.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { metricsApp } from '../../src/http/observe.js';
import { refresh } from '../../src/ingest/refresh/refresh.js';
import { resolveFormat } from '../../src/ingest/sources/index.js';
import { prometheusMetrics, type Metrics } from '../../src/metrics/prometheus.js';
import { Followed } from '../../src/modules/watchlist/watchlist.schemas.js';
import { EndpointWithSecret } from '../../src/modules/webhooks/webhooks.schemas.js';
import { files, testConfig, testGraph, testServices } from '../helpers/graph.js';
import { openTestPglite } from '../helpers/stores.js';
import { body } from '../helpers/http.js';
import { promtool } from '../helpers/promtool.js';
import { TX_FEED_SNAPSHOTS, tempFile, txRow } from '../helpers/source-files.js';
import { webhookReceiver } from '../helpers/webhook-receiver.js';

const TOKEN = 'metrics-token-for-the-test';
const VERIFY = '/api/v1/licensees/verify?state=TX&license_number=1-SA';
const FAST: Partial<Config> = { WEBHOOK_ALLOW_PRIVATE_URLS: true, WEBHOOK_RETRY_SCHEDULE: [50, 50], WEBHOOK_TIMEOUT_MS: 500, WEBHOOK_CONNECT_TIMEOUT_MS: 500 };
const waitFor = <T>(fn: () => T | Promise<T>) => vi.waitFor(fn, { timeout: 15_000, interval: 20 });
const DAY = 86_400;

/** The samples of an exposition, by `name{labels}` as Prometheus writes them (labels in their order). */
function samples(text: string) {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*(?:\{.*\})?) (\S+)$/.exec(line);
    if (m) out.set(m[1], Number(m[2]));
  }
  return out;
}

/** The values of `name` whose labels include `labels`. */
function values(all: Map<string, number>, name: string, labels: Record<string, string> = {}) {
  return [...all].filter(([key]) => {
    if (key !== name && !key.startsWith(`${name}{`)) return false;
    return Object.entries(labels).every(([k, v]) => key.includes(`${k}="${v}"`));
  });
}
const value = (all: Map<string, number>, name: string, labels: Record<string, string> = {}) => {
  const found = values(all, name, labels);
  expect(found, `${name} ${JSON.stringify(labels)}`).toHaveLength(1);
  return found[0][1];
};

describe('metrics', () => {
  let graph: GraphAdapters;
  let side: SideServices;
  let metrics: Metrics;
  let app: App;
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
  let refreshStarted: number;
  let refreshedAt: number;
  const rejectsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-metrics-'));
  const scrape = async () => {
    const res = await request(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text;
  };

  beforeAll(async () => {
    // As the server builds it: the root observes the graph's reads and points the gauges at what it opened.
    metrics = prometheusMetrics();
    const config = testConfig({ ...FAST, RATE_LIMITS: { ...DEFAULT_RATE_LIMITS, starter: { perSecond: 1, burst: 2 } } });
    const root = compose(config, { graph: (await testGraph()).graph, store: await openTestPglite(), metrics, mail: noMail('http://localhost') });
    [graph, side] = await Promise.all([root.graph(), root.side()]);
    app = (await root.app({ metrics: { requests: metrics.requests, shed: metrics.shed, exposition: metrics.exposition, token: TOKEN } })) as unknown as App;
    receiver = await webhookReceiver();
    side.dispatcher.start();
  });
  afterAll(async () => {
    await side?.dispatcher.stop();
    await receiver?.close();
    await graph?.close();
    await side?.store.close();
  });

  it('when known calls, a refresh and webhook deliveries have happened then /metrics counts each, and promtool accepts the exposition', async () => {
    const { key } = await side.accounts.createAccount({ email: 'ops@example.com', plan: 'enterprise' });
    const auth = { Authorization: `Bearer ${key.key}` };
    body(await request(app).put('/api/v1/watchlist/states/TX').set(auth), Followed);
    body(await request(app).post('/api/v1/webhooks').set(auth).send({ url: receiver.url('/ops') }), EndpointWithSecret);

    // Six rows read, one of them without a licence number (rejected).
    const text = `${TX_FEED_SNAPSHOTS.first}\n${txRow({ type: 'Sales Agent', number: '', name: 'NO NUMBER' })}\n`;
    refreshStarted = Date.now();
    const file = tempFile('tx.csv', text);
    await refresh(refreshOf(graph, files, side.clock, side.changes.log), { files: [file], format: resolveFormat(file), snapshot: '2026-09-01', rejectsDir });
    refreshedAt = Date.now();
    // A state's first load is one event (state_loaded), delivered once.
    await waitFor(() => expect(receiver.at('/ops')).toHaveLength(1));

    for (let i = 0; i < 3; i++) expect((await request(app).get(VERIFY).set(auth)).status).toBe(200);
    expect((await request(app).get('/api/v1/licensees/TX/999-XX').set(auth)).status).toBe(404);
    expect((await request(app).get(VERIFY)).status).toBe(401);
    const starter = await side.accounts.createAccount({ email: 'busy@example.com', plan: 'starter' });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await request(app).get(VERIFY).set('Authorization', `Bearer ${starter.key.key}`)).status);
    expect(statuses).toEqual([200, 200, 429]);

    let all = samples(await scrape());
    const verify = { route: '/api/v1/licensees/verify', method: 'GET' };
    expect(value(all, 'lvs_http_requests_total', { ...verify, status: '200' })).toBe(5);
    expect(value(all, 'lvs_http_requests_total', { ...verify, status: '401' })).toBe(1);
    // A call refused by its rate is answered before the rest of the stack, and counted apart.
    expect(values(all, 'lvs_http_requests_total', { ...verify, status: '429' })).toEqual([]);
    expect(value(all, 'lvs_http_requests_total', { route: '/api/v1/licensees/:state/:license_number', method: 'GET', status: '404' })).toBe(1);
    expect(value(all, 'lvs_http_request_duration_seconds_count', verify)).toBe(6);
    // Labels are route templates: no raw path, licence number or key reaches them.
    expect([...all.keys()].some((k) => /999-XX|1-SA|lvs_live_/.test(k))).toBe(false);
    expect(value(all, 'lvs_rate_limited_requests_total', { plan: 'starter' })).toBe(1);

    const reads = values(all, 'lvs_graph_queries_total', { engine: graph.engine.name });
    expect(reads.reduce((n, [, v]) => n + v, 0)).toBeGreaterThan(0);
    const names = new Set([...files.names(), 'other']);
    for (const [k] of reads) expect(names.has(/query="([^"]+)"/.exec(k)![1]), k).toBe(true);
    expect(value(all, 'lvs_graph_connections', { engine: graph.engine.name, state: 'max' })).toBeGreaterThan(0);
    // Neo4j's are read from its driver's pool (no public API): reads have left connections in it.
    expect(value(all, 'lvs_graph_connections', { engine: graph.engine.name, state: 'idle' }) + value(all, 'lvs_graph_connections', { engine: graph.engine.name, state: 'in_use' })).toBeGreaterThan(0);
    expect(value(all, 'lvs_side_store_connections', { store: 'pglite', state: 'max' })).toBe(1);

    // Verifies 5 and the 404 are counted, none written yet; a flush writes them.
    expect(value(all, 'lvs_metering_units_waiting')).toBe(6);
    await side.meter.flush();

    await waitFor(async () => expect(value(samples(await scrape()), 'lvs_webhook_delivery_attempts_total', { outcome: 'succeeded' })).toBe(1));
    all = samples(await scrape());
    expect(value(all, 'lvs_metering_units_waiting')).toBe(0);
    expect(value(all, 'lvs_metering_flush_age_seconds')).toBeLessThan(60);
    expect(value(all, 'lvs_webhook_backlog')).toBe(0);
    expect(value(all, 'lvs_webhook_oldest_due_seconds')).toBe(0);

    const tx = { state: 'TX' };
    expect(value(all, 'lvs_source_rows', tx)).toBe(6);
    expect(value(all, 'lvs_source_rejected_rows', tx)).toBe(1);
    expect(value(all, 'lvs_source_last_refresh_timestamp_seconds', tx) * 1000).toBeGreaterThanOrEqual(refreshStarted);
    expect(value(all, 'lvs_source_last_refresh_timestamp_seconds', tx) * 1000).toBeLessThanOrEqual(refreshedAt);
    expect(value(all, 'lvs_source_refresh_interval_seconds', tx)).toBe(DAY);
    expect(value(all, 'lvs_source_overdue_seconds', tx)).toBe(0);
    expect(value(all, 'lvs_source_stale', tx)).toBe(0);
    expect(value(all, 'lvs_readiness_check', { check: 'graph' })).toBe(1);
    expect(value(all, 'lvs_readiness_check', { check: 'accounts_store' })).toBe(1);
    for (const name of ['process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_p99_seconds']) expect(values(all, name)).toHaveLength(1);

    // The search index, once a search has brought it up to the refresh: the five licences it loaded.
    expect((await request(app).get('/api/v1/licensees?state=TX&name=a').set(auth)).status).toBe(200);
    all = samples(await scrape());
    expect([value(all, 'lvs_search_index_ready'), value(all, 'lvs_search_index_catching_up'), value(all, 'lvs_search_index_rows')]).toEqual([1, 0, 5]);
    expect(value(all, 'lvs_search_index_bytes')).toBeGreaterThan(0);
    expect(value(all, 'lvs_search_index_last_build_seconds')).toBeGreaterThan(0);
    const check = promtool();
    if (check) {
      const res = check(['check', 'metrics'], await scrape());
      expect(res.status, res.output).toBe(0);
    }
  });

  it('when three days pass after a daily source refreshed then it is stale by the verdicts\' rule, two days overdue', async () => {
    const later = prometheusMetrics();
    const deps = testServices(graph, side);
    const now = () => new Date(refreshedAt + 3 * DAY * 1000);
    later.watch({ graph: { engine: graph.engine.name }, sideStore: { kind: 'pglite' }, meter: side.meter.state, webhookBacklog: side.webhookBacklog, sources: deps.coverage.freshness, readiness: deps.readiness, searchIndex: deps.searchIndex, now });
    const all = samples((await later.exposition()).body);
    expect(value(all, 'lvs_source_stale', { state: 'TX' })).toBe(1);
    // The refresh stamped its time between refreshStarted and refreshedAt.
    expect(value(all, 'lvs_source_overdue_seconds', { state: 'TX' })).toBeGreaterThanOrEqual(2 * DAY);
    expect(value(all, 'lvs_source_overdue_seconds', { state: 'TX' })).toBeLessThanOrEqual(2 * DAY + (refreshedAt - refreshStarted) / 1000);
  });

  it('when /metrics is asked for on the API port without the token, or with another, then 401; an app without a token has no /metrics; the metrics port serves it alone', async () => {
    for (const header of [undefined, 'Bearer wrong-token-of-the-same-size!', `Basic ${TOKEN}`]) {
      const res = await request(app).get('/metrics').set(header ? { Authorization: header } : {});
      expect(res.status).toBe(401);
      expect(res.body.detail).toMatch(/METRICS_TOKEN/);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    }
    const deps = testServices(graph, side);
    // Without a token, the API port says how to turn them on.
    const off = await request(createApp(deps)).get('/metrics');
    expect(off.status).toBe(404);
    expect(off.body.detail).toMatch(/set METRICS_TOKEN .* or METRICS_PORT/);

    const port = metricsApp(metrics.exposition);
    const res = await request(port).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^# HELP lvs_http_requests_total /m);
    expect((await request(port).get('/api/v1/licensees/verify')).status).toBe(404);
  });
});
