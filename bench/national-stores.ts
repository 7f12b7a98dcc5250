// The national dataset's stores for the benches (bench/national.ts, bench/national-refresh.ts):
// generated (bench/national-data.ts) and loaded once into an on-disk LadybugDB graph and into a
// local Neo4j by its offline importer, then reused; and what a bench needs to serve them.
import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { compose } from '../src/compose/index.js';
import { loadQueryFiles } from '../src/graph/query-files.js';
import { loadConfig } from '../src/config.js';
import { importFolder, importFolderToSink } from '../src/ingest/load.js';
import { neo4jImportFiles } from '../src/graph/neo4j/import-files.js';
import { seedSearchIndex } from '../src/search/holder.js';
import { ensureNational } from './national-data.js';
import { importIntoLocalNeo4j, startLocalNeo4j, type LocalNeo4j } from '../test/helpers/local-neo4j.js';

export const NEO4J_PASSWORD = 'bench-national-password';

/** Where one size and seed of the dataset and its two stores live. */
export interface NationalStores {
  root: string;
  credentials: number;
  seed: number;
  /** The LadybugDB server's data dir: graph.lbug, its side store. */
  ladybugDir: string;
  /** The local Neo4j's data dir (neo4j/) and its server's (server/). */
  neo4jDir: string;
}

export function nationalStores(root: string, credentials: number, seed: number): NationalStores {
  return { root, credentials, seed, ladybugDir: path.join(root, `server-${credentials}-${seed}`), neo4jDir: path.join(root, `neo4j-${credentials}-${seed}`) };
}

export interface Prepared {
  dataset: string;
  loadSeconds: number;
  reused: boolean;
  /** Where a load's time went, by query (Neo4j). */
  where?: string[];
  /** Megabytes the loaded store takes on disk. */
  storeMb: number;
}

export const du = (dir: string) => Number(execFileSync('du', ['-sm', dir], { encoding: 'utf8' }).split('\t')[0]);

/** Generates (or reuses) the dataset and loads it into the LadybugDB store's graph (or reuses it). */
export async function prepare({ root, credentials, seed, ladybugDir: DATA_DIR }: NationalStores): Promise<Prepared> {
  const { folder: dataset } = await ensureNational(root, { credentials, seed });
  const loaded = path.join(DATA_DIR, 'loaded.json');
  if (fs.existsSync(loaded)) return { dataset, ...JSON.parse(fs.readFileSync(loaded, 'utf8')), reused: true, storeMb: du(path.join(DATA_DIR, 'graph.lbug')) };
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  fs.mkdirSync(DATA_DIR, { recursive: true });
  // The import's change events go to an in-memory side store: the bench serves from another.
  const stores = compose({ ...loadConfig({}), graphPath: path.join(DATA_DIR, 'graph.lbug'), GRAPH_BUFFER_POOL_MB: 2048, GRAPH_CONNECTIONS: 2, GRAPH_QUERY_TIMEOUT_MS: 3_600_000, DATABASE_POOL_SIZE: 1, CHANGE_RETENTION_DAYS: 400 });
  const started = Date.now();
  const summary = await importFolder(await stores.imports(), dataset).finally(() => stores.close());
  const loadSeconds = (Date.now() - started) / 1000;
  if (summary.rejected.length) throw new Error(`the dataset had ${summary.rejected.length} rejected rows`);
  fs.writeFileSync(loaded, JSON.stringify({ loadSeconds }));
  return { dataset, loadSeconds, reused: false, storeMb: du(path.join(DATA_DIR, 'graph.lbug')) };
}

/**
 * Loads the dataset into the local Neo4j's store with Neo4j's offline importer (the bulk path's
 * files, see src/graph/neo4j/import-files.ts), starts it on NEO4J_DIR, applies the schema and runs
 * the statements no file holds; or starts it on an earlier load.
 */
export async function prepareNeo4j({ neo4jDir: NEO4J_DIR }: NationalStores, dataset: string): Promise<Prepared & { neo4j: LocalNeo4j }> {
  const loaded = path.join(NEO4J_DIR, 'loaded.json');
  const reused = fs.existsSync(loaded);
  const store = () => du(path.join(NEO4J_DIR, 'neo4j', 'data'));
  // The bench's memory settings unless NEO4J_CONF names others (the launcher's defaults: tools/neo4j/neo4j.conf).
  process.env.NEO4J_CONF ??= new URL('./neo4j-bench.conf', import.meta.url).pathname;
  if (reused) {
    const neo4j = await startLocalNeo4j({ dataDir: NEO4J_DIR, password: NEO4J_PASSWORD });
    return { dataset, ...JSON.parse(fs.readFileSync(loaded, 'utf8')), reused, storeMb: store(), neo4j };
  }
  fs.rmSync(NEO4J_DIR, { recursive: true, force: true });
  const input = path.join(NEO4J_DIR, 'import-files');
  fs.mkdirSync(input, { recursive: true });
  const phases: [string, number][] = [];
  let mark = Date.now();
  const phase = (name: string) => {
    phases.push([name, (Date.now() - mark) / 1000]);
    console.log(`neo4j load: ${name} ${phases.at(-1)![1].toFixed(1)} s`);
    mark = Date.now();
  };
  const files = loadQueryFiles();
  const out = neo4jImportFiles(input);
  const { summary, jurisdictions } = await importFolderToSink(files, out.sink, dataset, () => new Date());
  if (summary.rejected.length) throw new Error(`the dataset had ${summary.rejected.length} rejected rows`);
  phase('parse and write the import files (the bulk path)');
  importIntoLocalNeo4j(NEO4J_DIR, out.importOptions(jurisdictions));
  phase('neo4j-admin database import full');
  const neo4j = await startLocalNeo4j({ dataDir: NEO4J_DIR, password: NEO4J_PASSWORD });
  try {
    phase('start Neo4j on the store');
    const root = compose({ ...loadConfig({}), graphPath: ':memory:', GRAPH_BUFFER_POOL_MB: 64, GRAPH_CONNECTIONS: 1, GRAPH_QUERY_TIMEOUT_MS: 3_600_000, NEO4J_URI: neo4j.uri, NEO4J_PASSWORD, DATABASE_POOL_SIZE: 1, CHANGE_RETENTION_DAYS: 400 });
    try {
      const graph = await root.graph();
      phase('schema: constraints and indexes created and populated');
      await out.runStatements(graph.engine, files);
      phase(`${out.statements.length} statements over Bolt (jurisdictions, business-name brokerages, counts)`);
      // Kept for each first start the bench measures (searchSeed): a server's seed is taken by its first build.
      fs.renameSync(await out.searchRows(graph.engine, files), path.join(NEO4J_DIR, 'search-seed'));
      fs.writeFileSync(path.join(NEO4J_DIR, 'search-seed.json'), JSON.stringify(await graph.searchSource().version(true)));
      phase('the search rows the load leaves for the first build of the search index');
    } finally {
      await root.close();
      fs.rmSync(input, { recursive: true, force: true });
    }
  } catch (err) {
    // A Neo4j left running holds its heap and page cache: a later run was killed for memory.
    await neo4j.stop();
    throw err;
  }
  const loadSeconds = phases.reduce((sum, [, s]) => sum + s, 0);
  const where = phases.map(([name, s]) => `${name} ${s.toFixed(1)} s`);
  fs.writeFileSync(loaded, JSON.stringify({ loadSeconds, where }));
  return { dataset, loadSeconds, reused, storeMb: store(), neo4j, where };
}

/**
 * Leaves the rows the Neo4j load kept (prepareNeo4j) for the first build of the search index of the
 * server on `dataDir`; false when the load kept none (a store loaded before they were).
 */
export function searchSeed({ neo4jDir }: NationalStores, dataDir: string): boolean {
  const rows = path.join(neo4jDir, 'search-seed');
  if (!fs.existsSync(rows)) return false;
  const copy = path.join(dataDir, 'search-seed.copy');
  fs.copyFileSync(rows, copy);
  seedSearchIndex(loadConfig({ DATA_DIR: dataDir }).searchIndexPath, copy, JSON.parse(fs.readFileSync(`${rows}.json`, 'utf8')));
  return true;
}

/** An enterprise account's key, created in the server's side store before it starts (PostgreSQL at `databaseUrl`, else its data dir's PGlite). */
export async function apiKey(dataDir: string, databaseUrl?: string, plan: 'growth' | 'enterprise' = 'enterprise'): Promise<string> {
  fs.mkdirSync(dataDir, { recursive: true });
  const root = compose(loadConfig({ DATA_DIR: dataDir, DATABASE_POOL_SIZE: '1', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }));
  try {
    const accounts = await root.accounts();
    return (await accounts.createAccount({ email: `bench-${Date.now()}@example.com`, plan })).key.key;
  } finally {
    await root.close();
  }
}

/** Seconds until `url` answers 2xx; fails when the child exits first or after `timeoutMs`. */
export async function waitFor(url: string, child: ChildProcess, timeoutMs = 120_000, headers: Record<string, string> = {}) {
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    try {
      if ((await fetch(url, { headers })).ok) return (Date.now() - started) / 1000;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > timeoutMs) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Peak and current RSS of a process, in MB (Linux /proc). */
export function rss(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(/(\d+) kB/.exec(status.split('\n').find((l) => l.startsWith(field)) ?? '')?.[1] ?? 0);
  return { now: kb('VmRSS:') / 1024, peak: kb('VmHWM:') / 1024 };
}

