import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { TestProject } from 'vitest/node';
import { compose, noMail, openGraph } from '../../src/compose/index.js';
import { loadQueryFiles } from '../../src/graph/query-files.js';
import { migrate } from '../../src/store/migrations.js';
import { openPglite } from '../../src/store/pglite-store.js';
import { testConfig } from './config.js';

// The document the service serves at /openapi.json, read once, so that every API test can check
// the bodies it receives against it as well as against the zod schemas. And the freshly migrated
// side store it starts from, dumped for the tests' in-memory stores to copy (test/helpers/stores.ts).
declare module 'vitest' {
  export interface ProvidedContext {
    openapi: Record<string, unknown>;
  }
}

// Both projects list this setup; vitest runs it for each in one process, so the second takes the
// first's results, and the last teardown removes the template.
const shared = globalThis as { lvsOpenapiSetup?: { made: Promise<{ template: string; openapi: Record<string, unknown> }>; users: number; dir: string } };

export default async function setup(project: TestProject) {
  if (!shared.lvsOpenapiSetup) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-pglite-template-'));
    const made = make(dir).catch((err: unknown) => {
      fs.rmSync(dir, { recursive: true, force: true });
      throw err;
    });
    shared.lvsOpenapiSetup = { made, users: 0, dir };
  }
  const run = shared.lvsOpenapiSetup;
  run.users += 1;
  const { template, openapi } = await run.made;
  project.provide('pgliteTemplate', template);
  project.provide('openapi', openapi);
  return () => {
    run.users -= 1;
    if (run.users > 0) return;
    fs.rmSync(run.dir, { recursive: true, force: true });
    shared.lvsOpenapiSetup = undefined;
  };
}

async function make(dir: string) {
  const files = loadQueryFiles();
  const graph = await openGraph(testConfig({ graphPath: ':memory:', GRAPH_BUFFER_POOL_MB: 64, GRAPH_CONNECTIONS: 1, GRAPH_QUERY_TIMEOUT_MS: 30000 }), files);
  const store = await openPglite();
  try {
    await migrate(store);
    const template = path.join(dir, 'pglite.tar');
    fs.writeFileSync(template, await store.dump());
    const app = await compose(testConfig(), { graph, store, mail: noMail('http://localhost') }).app();
    const res = await request(app).get('/openapi.json');
    if (res.status !== 200) throw new Error(`/openapi.json answered ${res.status}`);
    return { template, openapi: res.body as Record<string, unknown> };
  } finally {
    await store.close();
    await graph.close();
  }
}
