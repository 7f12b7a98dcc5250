import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import type { App } from 'supertest/types.js';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../../src/app.js';
import { buildDeps, importRepo, loadQueryFiles, openGraph } from '../../src/deps.js';
import type { GraphEngine } from '../../src/graph/graph-port.js';
import { importFolder, type ImportSummary } from '../../src/ingest/canonical-import.js';

export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
export const DEMO_SEEDS = fileURLToPath(new URL('../../seeds/demo/', import.meta.url));
export const files = loadQueryFiles();

/** An in-memory LadybugDB graph with the schema applied, optionally loaded from folders. */
export async function testGraph(...folders: string[]): Promise<{ graph: GraphEngine; summaries: ImportSummary[] }> {
  const graph = await openGraph(
    { graphPath: ':memory:', GRAPH_BUFFER_POOL_MB: 256, GRAPH_CONNECTIONS: 2, GRAPH_QUERY_TIMEOUT_MS: 30000 },
    files,
  );
  const summaries = [];
  for (const folder of folders) summaries.push(await importFolder(importRepo(graph, files), folder));
  return { graph, summaries };
}

export function testApp(graph: GraphEngine) {
  const logger = pino({ level: 'silent' });
  return createApp(buildDeps(graph, files, logger, { JSON_BODY_LIMIT: '128kb', TRUST_PROXY: false }));
}

export const fixture = (name: string) => path.join(FIXTURES, name);

/** A graph loaded from folders and the app over it, for the enclosing describe block. */
export function useApp(...folders: string[]) {
  const ctx = {} as { graph: GraphEngine; app: App };
  beforeAll(async () => {
    ctx.graph = (await testGraph(...folders)).graph;
    ctx.app = testApp(ctx.graph) as unknown as App;
  });
  afterAll(() => ctx.graph?.close());
  return ctx;
}
