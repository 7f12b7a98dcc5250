import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../src/config.js';
import pino from 'pino';
import type { App } from 'supertest/types.js';
import { afterAll, beforeAll, inject } from 'vitest';
import { createApp } from '../../src/app.js';
import type { Neo4jEngine } from '../../src/graph/neo4j/engine.js';
import { accountsDeps, buildDeps, importRepo, loadQueryFiles, openGraph, searchIndex, webhookSetup, type MailSetup } from '../../src/deps.js';
import { migrate } from '../../src/store/migrations.js';
import { openPglite } from '../../src/store/pglite-store.js';
import type { SqlStore } from '../../src/store/sql-store.js';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';
import type { GraphEngine } from '../../src/graph/graph-port.js';
import type { Clock } from '../../src/domain/clock.js';
import { splitStatements } from '../../src/graph/query-files.js';
import { importFolder, type ImportSummary } from '../../src/ingest/load.js';
import { DEMO_SEEDS } from '../../src/start-up.js';
import { NEO4J_INSTANCE_ENV, type Neo4jInstance } from './neo4j-global-setup.js';
import { openTestPglite } from './stores.js';

export { DEMO_SEEDS };

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
export async function emptyGraph(engine: 'ladybug' | 'neo4j' = TEST_ENGINE, neo4j?: Neo4jInstance): Promise<GraphEngine> {
  const base = { graphPath: ':memory:', GRAPH_BUFFER_POOL_MB: 1024, GRAPH_CONNECTIONS: 2, GRAPH_QUERY_TIMEOUT_MS: 30000 };
  if (engine === 'ladybug') return openGraph(base, files);
  const target = neo4j ?? suiteNeo4j();
  const graph = await openGraph({ ...base, NEO4J_URI: target.uri, NEO4J_USER: target.user, NEO4J_PASSWORD: target.password }, files);
  // In batches: one transaction deleting a state's credentials and their name postings outgrows 512 MB.
  await (graph as Neo4jEngine).writeSteps((t) => t.run('MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 2000 ROWS'));
  // A wiped graph is a new one: what the schema sets up in a new graph (the in-force day) again.
  await graph.applySchema(splitStatements(files.get('schema/neo4j')));
  return graph;
}

/** An empty graph with the schema applied, optionally loaded from folders. */
export async function testGraph(...folders: string[]): Promise<{ graph: GraphEngine; summaries: ImportSummary[] }> {
  const graph = await emptyGraph();
  const summaries = [];
  for (const folder of folders) summaries.push(await importFolder(importRepo(graph, files), folder));
  return { graph, summaries };
}

/** A PGlite side store (in memory, or in `folder`), migrated, with its accounts services. */
export async function testStore(options: Parameters<typeof accountsDeps>[2] = {}, folder?: string, clock?: Clock) {
  const store = folder ? await openPglite(folder) : await openTestPglite();
  if (folder) await migrate(store);
  return { store, ...accountsDeps(store, clock, options) };
}

export function testApp(graph: GraphEngine, side: ReturnType<typeof accountsDeps>, config: Partial<Pick<Config, 'CORS_ORIGINS' | 'TRUST_PROXY' | 'MAX_CONCURRENT_REQUESTS' | 'MAX_WAITING_REQUESTS' | 'REQUEST_WAIT_TIMEOUT_MS'>> = {}, mail?: MailSetup) {
  const logger = pino({ level: 'silent' });
  return createApp(buildDeps(graph, logger, { JSON_BODY_LIMIT: '128kb', TRUST_PROXY: false, ...config }, side, searchIndex(graph, logger), mail));
}

export const fixture = (name: string) => path.join(FIXTURES, name);

/** An empty graph and a side store (as testStore) for the enclosing describe block. */
export function useGraphAndStore(options: Parameters<typeof accountsDeps>[2] = {}) {
  const ctx = {} as { graph: GraphEngine; side: Awaited<ReturnType<typeof testStore>> };
  beforeAll(async () => {
    ctx.graph = (await testGraph()).graph;
    ctx.side = await testStore(options);
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
  const ctx = {} as { graph: GraphEngine; app: App; api: TestAgent; store: SqlStore; key: string; side: Awaited<ReturnType<typeof testStore>> };
  beforeAll(async () => {
    ctx.graph = (await testGraph(...folders)).graph;
    // Webhook URLs on loopback are allowed here; test/api/webhooks.both.test.ts checks the default refusal.
    const side = await testStore({ webhooks: webhookSetup({ WEBHOOK_ALLOW_PRIVATE_URLS: true }) });
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
