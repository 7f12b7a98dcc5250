// The read and write paths of two checkouts in one process, rounds alternating, so that a change
// is measured against what it replaced on the same machine at the same moment: each checkout
// opens its own graph through its own composition root (LadybugDB on disk, or the local Neo4j
// wiped between checkouts), imports the demo data, imports a small fixture over it (the upsert
// path), refreshes a generated FL file twice (a first load and a 20% change), and then reads
// through its own GraphReads: records, supervisors, affiliations and affiliates pages.
// Usage: npm run bench:ab -- --before ../baseline [--engine ladybug,neo4j] [--rounds 3] [--rows 20000]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { localNeo4jMissing, startLocalNeo4j, type LocalNeo4j } from '../test/helpers/local-neo4j.js';
import { writeFlFile } from './fl-file.js';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    engine: { type: 'string', default: 'ladybug,neo4j' },
    rounds: { type: 'string', default: '3' },
    rows: { type: 'string', default: '20000' },
  },
});
if (!values.before) throw new Error('--before names the other checkout (a git worktree of the commit to compare with)');
const ROUNDS = Number(values.rounds);
const ROWS = Number(values.rows);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TODAY = () => '2026-11-27';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Module = Record<string, any>;

/** The first of `paths` (a file moved between checkouts) that exists in `dir`, imported. */
async function load(dir: string, ...paths: string[]): Promise<Module> {
  const found = paths.map((p) => path.join(dir, p)).find((p) => fs.existsSync(p));
  if (!found) throw new Error(`none of ${paths.join(', ')} in ${dir}`);
  return import(found);
}

async function checkout(dir: string) {
  return {
    dir,
    deps: fs.existsSync(path.join(dir, 'src/compose/index.ts')) ? rooted(await load(dir, 'src/compose/index.ts'), await load(dir, 'src/config.ts'), await load(dir, 'src/graph/query-files.ts')) : await load(dir, 'src/deps.ts'),
    canonical: await load(dir, 'src/ingest/load.ts', 'src/ingest/import/canonical-import.ts', 'src/ingest/canonical-import.ts'),
    refresh: await load(dir, 'src/ingest/refresh/refresh.ts', 'src/ingest/refresh.ts'),
    sources: await load(dir, 'src/ingest/sources/index.ts'),
  };
}
type Checkout = Awaited<ReturnType<typeof checkout>>;

/** A checkout with the composition root (src/compose/) seen through the names the root file of older checkouts gave. */
function rooted(compose: Module, config: Module, queryFiles: Module): Module {
  const held = new WeakMap<object, any>();
  return {
    loadQueryFiles: queryFiles.loadQueryFiles,
    async openGraph(c: Record<string, unknown>, files: unknown) {
      const set = await compose.openGraph({ ...config.loadConfig({}), ...c }, files);
      held.set(set.engine, set);
      return set.engine;
    },
    importRepo: (engine: object, files: unknown) => compose.importsOf(held.get(engine), files),
    refreshRepo: (engine: object, files: unknown) => compose.refreshOf(held.get(engine), files),
    graphReads: (engine: object, today: () => string) => held.get(engine).reads(today),
  };
}

const timed = async (fn: () => Promise<unknown>) => {
  const started = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
};

/** One round of one checkout: its writes, then its reads; milliseconds per step. */
async function round(c: Checkout, engine: 'ladybug' | 'neo4j', neo4j: LocalNeo4j | undefined, work: string) {
  const files = c.deps.loadQueryFiles();
  const dir = fs.mkdtempSync(path.join(work, 'round-'));
  const config = { graphPath: path.join(dir, 'graph.lbug'), GRAPH_BUFFER_POOL_MB: 1024, GRAPH_CONNECTIONS: 2, GRAPH_QUERY_TIMEOUT_MS: 600_000, ...(neo4j ? { NEO4J_URI: neo4j.uri, NEO4J_USER: neo4j.user, NEO4J_PASSWORD: neo4j.password } : {}) };
  let graph = await c.deps.openGraph(config, files);
  if (engine === 'neo4j') {
    // Both checkouts write the same database: each round starts from an empty one, with its schema.
    await graph.writeSteps((t: any) => t.run('MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 2000 ROWS'));
    await graph.close();
    graph = await c.deps.openGraph(config, files);
  }
  const steps: Record<string, number> = {};
  try {
    const imports = () => c.deps.importRepo(graph, files);
    steps['import demo'] = await timed(() => c.canonical.importFolder(imports(), path.join(c.dir, 'seeds/demo')));
    steps['import fixture over it'] = await timed(() => c.canonical.importFolder(imports(), path.join(c.dir, 'test/fixtures/small')));
    const flFile = path.join(work, 'fl.csv');
    const changed = path.join(work, 'fl-changed.csv');
    const ingest = (file: string, snapshot: string) =>
      c.refresh.refresh(c.deps.refreshRepo(graph, files), { files: [file], format: c.sources.resolveFormat(file), snapshot, rejectsDir: dir });
    steps[`refresh ${ROWS} FL rows, first`] = await timed(() => ingest(flFile, '2026-10-01'));
    steps['refresh, same again'] = await timed(() => ingest(flFile, '2026-10-15'));
    steps['refresh, 20% changed'] = await timed(() => ingest(changed, '2026-11-01'));

    const reads = c.deps.graphReads.length === 4 ? c.deps.graphReads(graph, files, TODAY) : c.deps.graphReads(graph, TODAY);
    const ids = (await graph.read('MATCH (c:LicenseCredential) RETURN c.id AS id ORDER BY c.id LIMIT 1000')).map((r: any) => r.id as string);
    const supervisors = (await graph.read('MATCH (s:LicenseCredential)-[:SUPERVISES]->() RETURN DISTINCT s.id AS id ORDER BY id LIMIT 300')).map((r: any) => r.id as string);
    steps['reads: 1,000 records one at a time'] = await timed(async () => {
      for (const id of ids) await reads.byIds([id]);
    });
    steps['reads: 1,000 with supervisors'] = await timed(async () => {
      for (const id of ids) await reads.withSupervisors([id], () => true, TODAY());
    });
    steps['reads: 1,000 affiliations'] = await timed(async () => {
      for (const id of ids) await reads.affiliations(id, { include_inactive: true });
    });
    steps['reads: 300 affiliates pages'] = await timed(async () => {
      for (const id of supervisors) await reads.affiliates(id, {}, 0, 50);
    });
  } finally {
    await graph.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return steps;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const before = await checkout(path.resolve(values.before!));
  const after = await checkout(ROOT);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-ab-'));
  await writeFlFile(path.join(work, 'fl.csv'), ROWS, () => false);
  await writeFlFile(path.join(work, 'fl-changed.csv'), ROWS, (i) => i % 5 === 0);
  try {
    for (const engine of values.engine!.split(',') as ('ladybug' | 'neo4j')[]) {
      let neo4j: LocalNeo4j | undefined;
      if (engine === 'neo4j') {
        const missing = localNeo4jMissing();
        if (missing) {
          console.log(`neo4j: skipped (${missing})`);
          continue;
        }
        neo4j = await startLocalNeo4j({ dataDir: fs.mkdtempSync(path.join(work, 'neo4j-')), password: 'bench-password' });
      }
      try {
        const results = { before: [] as Record<string, number>[], after: [] as Record<string, number>[] };
        for (let r = 0; r < ROUNDS; r++) {
          // The order alternates: neither checkout always runs on a warmer machine.
          const order = r % 2 ? (['after', 'before'] as const) : (['before', 'after'] as const);
          for (const side of order) results[side].push(await round(side === 'before' ? before : after, engine, neo4j, work));
          console.log(`${engine}: round ${r + 1} of ${ROUNDS} done`);
        }
        console.log(`\n${engine} (${ROUNDS} rounds, medians)`);
        console.log('| step | before, ms | after, ms | after / before | rounds, before / after |\n|---|---|---|---|---|');
        for (const step of Object.keys(results.before[0])) {
          const b = median(results.before.map((x) => x[step]));
          const a = median(results.after.map((x) => x[step]));
          const rounds = (side: 'before' | 'after') => results[side].map((x) => x[step].toFixed(0)).join(' ');
          console.log(`| ${step} | ${b.toFixed(0)} | ${a.toFixed(0)} | ${(a / b).toFixed(2)} | ${rounds('before')} / ${rounds('after')} |`);
        }
      } finally {
        await neo4j?.stop();
      }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
