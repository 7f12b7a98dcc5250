import path from 'node:path';
import { importsOf } from '../../src/compose/index.js';
import { importFolder } from '../../src/ingest/load.js';
import { DEMO_SEEDS, emptyGraph, files } from './graph.js';
import { SHORT_LIVED_JVM, startLocalNeo4j, tempDir, type LocalNeo4j } from './local-neo4j.js';
import { startPrivatePostgres, type PrivatePostgres } from './private-postgres.js';
import { getJson, runScript, startServer, type Running } from './processes.js';

// Store outages, drilled on the real server (src/main.ts) over a Neo4j and a PostgreSQL of the
// drill's own, which it stops and starts while requests flow. Used by the outage tests (which
// assert what clients saw) and by bench/outages.ts (which also times it).

export interface Sample {
  key: string;
  status: number;
  detail?: string;
  /** The verification record a verify answer names (Verification-Id). */
  verificationId?: string;
  sentAt: number;
  doneAt: number;
}

export interface Drill {
  neo4j: LocalNeo4j;
  postgres: PrivatePostgres;
  server: Running;
  keys: { growth: string; free: string };
  get(url: string, key?: string): Promise<{ status: number; body: Record<string, any> }>;
  /** Sends verify calls with each key, `perKey` at a time, until stopped; returns every answer. */
  traffic(keys: string[], perKey?: number): { samples: Sample[]; stop(): Promise<Sample[]> };
  close(): Promise<void>;
}

/** Polls `check` every 100 ms until it holds or `boundMs` passes; returns whether it held. */
export async function poll(check: () => Promise<boolean>, boundMs = 120_000): Promise<boolean> {
  const until = Date.now() + boundMs;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

export async function startDrill(): Promise<Drill> {
  const work = tempDir('lvs-outage-');
  const neo4j = await startLocalNeo4j({ dataDir: path.join(work.dir, 'neo4j'), password: 'outage-drill-password', javaOpts: SHORT_LIVED_JVM });
  const postgres = await startPrivatePostgres();
  const graph = await emptyGraph('neo4j', neo4j);
  await importFolder(importsOf(graph, files), DEMO_SEEDS);
  await graph.close();
  // Rates far above the drill's callers: the limiter runs (on PostgreSQL, on its own while that is away) and refuses none.
  const env = { NEO4J_URI: neo4j.uri, NEO4J_PASSWORD: neo4j.password, DATABASE_URL: postgres.url, DEMO_DATA: 'false', DATA_DIR: path.join(work.dir, 'server'), RATE_LIMITS: 'free=1000:1000,growth=1000:1000' };
  const server = await startServer(env);
  const account = (plan: string) => {
    const run = runScript('src/cli/admin.ts', ['accounts', 'create', '--email', `${plan}@example.com`, '--plan', plan, '--json'], { ...env, DATA_DIR: path.join(work.dir, 'cli') });
    if (run.status !== 0) throw new Error(run.stderr);
    return JSON.parse(run.stdout).key.key as string;
  };
  const keys = { growth: account('growth'), free: account('free') };

  const get = (url: string, key?: string) => getJson(`${server.url}${url}`, key);

  const traffic = (trafficKeys: string[], perKey = 2) => {
    const samples: Sample[] = [];
    let running = true;
    const worker = async (key: string) => {
      while (running) {
        const sentAt = Date.now();
        try {
          const res = await fetch(`${server.url}/api/v1/licensees/verify?state=FL&license_number=0556506`, { headers: { authorization: `Bearer ${key}` } });
          const body = (await res.json()) as Record<string, unknown>;
          const verificationId = res.headers.get('verification-id') ?? undefined;
          samples.push({ key, status: res.status, detail: typeof body.detail === 'string' ? body.detail : undefined, verificationId, sentAt, doneAt: Date.now() });
        } catch (err) {
          // A refused or reset connection: the service did not answer at all.
          samples.push({ key, status: 0, detail: (err as Error).message, sentAt, doneAt: Date.now() });
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const workers = trafficKeys.flatMap((key) => Array.from({ length: perKey }, () => worker(key)));
    return {
      samples,
      async stop() {
        running = false;
        await Promise.all(workers);
        return samples;
      },
    };
  };

  return {
    neo4j,
    postgres,
    server,
    keys,
    get,
    traffic,
    async close() {
      server.child.kill('SIGTERM');
      await server.exited;
      await neo4j.stop();
      postgres.remove();
      work.remove();
    },
  };
}
