import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../src/config.js';
import { testConfig } from './config.js';
import pino from 'pino';
import type { App } from 'supertest/types.js';
import { afterAll, beforeAll, inject } from 'vitest';
import { createApp } from '../../src/app.js';
import { setUpNeo4j } from '../../src/graph/neo4j/adapters.js';
import type { Neo4jEngine } from '../../src/graph/neo4j/engine.js';
import { compose, importsOf, noMail, openGraph, type MailSetup, type SideServices } from '../../src/compose/index.js';
import { appServices } from '../../src/compose/services.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import type { Metrics } from '../../src/metrics/prometheus.js';
import type { WebhookTransport } from '../../src/modules/webhooks/transport.js';
import { migrate } from '../../src/store/migrations.js';
import { openPglite } from '../../src/store/pglite-store.js';
import type { SqlStore } from '../../src/store/sql-store.js';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';
import type { Clock } from '../../src/domain/clock.js';
import { loadQueryFiles, splitStatements } from '../../src/graph/query-files.js';
import { importFolder, type ImportSummary } from '../../src/ingest/load.js';
import { DEMO_SEEDS } from '../../src/start-up.js';
import { NEO4J_INSTANCE_ENV, type Neo4jInstance } from './neo4j-global-setup.js';
import { openTestPglite } from './stores.js';
import { searchIndexOver } from '../../src/search/holder.js';

export { DEMO_SEEDS, testConfig };

export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
export const files = loadQueryFiles();


/** The engine the suite runs on: TEST_GRAPH_ENGINE=neo4j points it at the test Neo4j. */
export const TEST_ENGINE: 'ladybug' | 'neo4j' = process.env.TEST_GRAPH_ENGINE === 'neo4j' ? 'neo4j' : 'ladybug';

/**
 * The suite's Neo4j this file holds (test/helpers/neo4j-global-setup.ts, neo4j-instance-setup.ts);
 * only in the `neo4j` project.
 */
export function suiteNeo4j(): Neo4jInstance {
  const target = inject('neo4j');
  if (!target) throw new Error('this file needs the suite\'s Neo4j: it runs in the neo4j project (vitest.config.ts)');
  if ('skipped' in target) throw new Error(`TEST_GRAPH_ENGINE=neo4j but ${target.skipped}`);
  const held = process.env[NEO4J_INSTANCE_ENV];
  if (held === undefined) throw new Error('this file holds no Neo4j instance: the neo4j project runs neo4j-instance-setup.ts first');
  return inject('neo4jInstances').instances[Number(held)];
}

/** Opens an empty graph on an engine: LadybugDB in memory, or a Neo4j (the suite's by default) wiped clean. */
export async function emptyGraph(engine: 'ladybug' | 'neo4j' = TEST_ENGINE, neo4j?: Neo4jInstance, overrides: Partial<Config> = {}): Promise<GraphAdapters> {
  const base = testConfig({ graphPath: ':memory:', GRAPH_CONNECTIONS: 2, GRAPH_QUERY_TIMEOUT_MS: 30000, ...overrides });
  if (engine === 'ladybug') return openGraph(base, files);
  const target = neo4j ?? suiteNeo4j();
  const graph = await openGraph(testConfig({ ...base, NEO4J_URI: target.uri, NEO4J_USER: target.user, NEO4J_PASSWORD: target.password }), files);
  // In batches: one transaction deleting a state's credentials and their name postings outgrows 512 MB.
  await (graph.engine as Neo4jEngine).writeSteps((t) => t.run('MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 2000 ROWS'));
  // A wiped graph is a new one: what the schema sets up in a new graph (the in-force day) again.
  await setUpNeo4j(graph.engine as Neo4jEngine, files, splitStatements(files.get('schema/neo4j')));
  return graph;
}

/** An empty graph with the schema applied, optionally loaded from folders. */
export async function testGraph(...folders: string[]): Promise<{ graph: GraphAdapters; summaries: ImportSummary[] }> {
  const graph = await emptyGraph();
  const summaries = [];
  for (const folder of folders) summaries.push(await importFolder(importsOf(graph, files), folder));
  return { graph, summaries };
}

/**
 * A PGlite side store (in memory, or in `folder`), migrated, with its services as the root makes
 * them over `overrides` of the test configuration.
 */
export async function testStore(overrides: Partial<Config> = {}, folder?: string, clock?: Clock, extra: { metrics?: Metrics; transport?: WebhookTransport; graph?: GraphAdapters } = {}) {
  const store = folder ? await openPglite(folder) : await openTestPglite();
  if (folder) await migrate(store);
  // With a graph, committed runs get their alerts as the server's do; without, none are derived.
  return compose(testConfig(overrides), { store, clock, alerts: extra.graph !== undefined, ...extra }).side();
}

const indexes = new WeakMap<GraphAdapters, ReturnType<typeof searchIndexOver>>();
/** The search index over a graph, as the root makes it (one a graph); a failed build fails the test that searches. */
export function testIndex(graph: GraphAdapters) {
  let index = indexes.get(graph);
  if (!index) indexes.set(graph, (index = searchIndexOver(graph.searchSource(), () => undefined)));
  return index;
}

/** The app's services over a graph and a side store, as the root makes them (silent log, no mail unless given). */
export function testServices(graph: GraphAdapters, side: SideServices, overrides: Partial<Config> = {}, mail: MailSetup = noMail('http://localhost')) {
  const logger = pino({ level: 'silent' });
  return appServices(graph, side, testConfig(overrides), { logger, index: testIndex(graph), mail });
}

export function testApp(graph: GraphAdapters, side: SideServices, overrides: Partial<Config> = {}, mail?: MailSetup) {
  return createApp(testServices(graph, side, overrides, mail));
}

export const fixture = (name: string) => path.join(FIXTURES, name);

/** An empty graph and a side store (as testStore) for the enclosing describe block. */
export function useGraphAndStore(overrides: Partial<Config> = {}) {
  const ctx = {} as { graph: GraphAdapters; side: SideServices };
  beforeAll(async () => {
    ctx.graph = (await testGraph()).graph;
    ctx.side = await testStore(overrides);
  });
  afterAll(async () => {
    await ctx.graph?.close();
    await ctx.side?.store.close();
  });
  return ctx;
}

/**
 * A graph loaded from folders and the app over it, for the enclosing describe block; `api` sends
 * every request with the API key of an enterprise account.
 */
export function useApp(...folders: string[]) {
  const ctx = {} as { graph: GraphAdapters; app: App; api: TestAgent; store: SqlStore; key: string; side: SideServices };
  beforeAll(async () => {
    ctx.graph = (await testGraph(...folders)).graph;
    // Webhook URLs on loopback are allowed here; test/api/webhooks.both.test.ts checks the default refusal.
    const side = await testStore({ WEBHOOK_ALLOW_PRIVATE_URLS: true }, undefined, undefined, { graph: ctx.graph });
    ctx.side = side;
    ctx.store = side.store;
    ctx.app = testApp(ctx.graph, side) as unknown as App;
    ctx.key = (await side.accounts.createAccount({ email: 'tests@example.com', plan: 'enterprise' })).key.key;
    ctx.api = request.agent(ctx.app).set('Authorization', `Bearer ${ctx.key}`);
  });
  afterAll(async () => {
    await ctx.graph?.close();
    await ctx.store?.close();
  });
  return ctx;
}
