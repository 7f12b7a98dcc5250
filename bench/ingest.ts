// Refresh throughput on both engines: a generated FL DBPR file (the layout of RE_rgn*.csv)
// ingested by the ingest command (its own process, with its peak RSS) as a first load, the same
// snapshot again and a changed next snapshot, each recording its change events in an on-disk
// PGlite side store. LadybugDB on disk; Neo4j from the local launcher on its own settings
// (NEO4J_CONF names another file: bench/neo4j-compose.conf has the compose file's), with its peak
// transaction memory and heap sampled while each run goes.
// With --watchers N, N accounts (each with a webhook endpoint) watch the first --watched agents
// before the next snapshot, which changes the status of every brokerage above them: the alerts
// derived, and the derivation timed again alone against the refresh it was part of.
// Usage: npm run bench:ingest [-- --rows 450000] [--engine ladybug,neo4j] [--moves] [--watchers 10 --watched 4433] [--timings]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { compose } from '../src/compose/index.js';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/store/open-store.js';
import type { RefreshSummary } from '../src/ingest/refresh/refresh.js';
import { localNeo4jMissing, startLocalNeo4j } from '../test/helpers/local-neo4j.js';
import { writeFlFile } from './fl-file.js';
import { ingestCommand, neo4jMemory } from './refresh-runs.js';
import { addWatchers, deriveAgain } from './watchers.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '450000' },
    engine: { type: 'string', default: 'ladybug,neo4j' },
    // The next snapshot also moves agents to the next brokerage: one in 40 alone (transfers), and
    // every agent of one brokerage in 100 (bulk moves).
    moves: { type: 'boolean', default: false },
    watchers: { type: 'string', default: '0' },
    watched: { type: 'string', default: '4433' },
    // Each run's 10 longest statements, from the ingest command's --timings.
    timings: { type: 'boolean', default: false },
  },
});
const ROWS = Number(values.rows);
const ENGINES = values.engine!.split(',') as ('ladybug' | 'neo4j')[];
const MB = 2 ** 20;
const WATCHERS = Number(values.watchers);
const WATCHED = Number(values.watched);

async function bench(engine: 'ladybug' | 'neo4j', file1: string, file2: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `lvs-bench-ingest-${engine}-`));
  const neo4j = engine === 'neo4j' ? await startLocalNeo4j({ dataDir: path.join(dir, 'neo4j'), password: 'bench-ingest-password' }) : undefined;
  const memory = neo4j && neo4jMemory(neo4j);
  const config = loadConfig();
  // The ingest command's own stores under DATA_DIR (an on-disk LadybugDB graph unless Neo4j, a PGlite side store).
  const env = {
    DATA_DIR: path.join(dir, 'data'),
    NEO4J_URI: neo4j?.uri,
    NEO4J_USER: neo4j?.user,
    NEO4J_PASSWORD: neo4j?.password,
    DATABASE_URL: undefined,
    GRAPH_QUERY_TIMEOUT_MS: '600000',
  };
  /** Published events, and how many of them are transfers and bulk moves. */
  const counted = async () => {
    const store = await openStore({ pglitePath: path.join(env.DATA_DIR, 'accounts.pglite'), DATABASE_POOL_SIZE: 1 });
    try {
      const [r] = await store.query<{ n: number; transfers: number; bulk: number }>(
        "SELECT count(*)::int AS n, count(*) FILTER (WHERE type = 'supervision_transferred')::int AS transfers, count(*) FILTER (WHERE type = 'roster_moved')::int AS bulk FROM change_events WHERE seq IS NOT NULL",
      );
      return r;
    } catch {
      return { n: 0, transfers: 0, bulk: 0 }; // no run has made the side store's tables yet
    } finally {
      await store.close();
    }
  };
  const eventsSince = async (before: Awaited<ReturnType<typeof counted>>) => {
    const now = await counted();
    return `${now.n - before.n}${values.moves ? ` (transfers ${now.transfers - before.transfers}, bulk moves ${now.bulk - before.bulk})` : ''}`;
  };
  const run = async (label: string, file: string, snapshot: string): Promise<RefreshSummary | undefined> => {
    memory?.reset();
    const before = await counted();
    const started = Date.now();
    const { summary: s, statements, error, peakRss } = await ingestCommand(['--format', 'dbpr-csv', '--snapshot', snapshot, ...(values.timings ? ['--timings'] : []), file], env);
    const where = `ingest process peak RSS ${(peakRss / MB).toFixed(0)} MB${memory ? `; ${memory.peaks()}` : ''}`;
    if (!s) {
      console.log(`${engine}: ${label.padEnd(26)} failed after ${((Date.now() - started) / 1000).toFixed(1)} s  ${where}: ${error}`);
      return undefined;
    }
    console.log(
      `${engine}: ${label.padEnd(26)} ${(s.elapsed_ms / 1000).toFixed(1).padStart(6)} s  ${Math.round(s.rows_read / (s.elapsed_ms / 1000)).toLocaleString('en-US').padStart(7)} rows/s  ${where}  ` +
        `inserted ${s.inserted}, updated ${s.updated}, unchanged ${s.unchanged}, opened ${s.edges_opened}, closed ${s.edges_closed}, rejected ${s.rejected}, change events ${await eventsSince(before)}`,
    );
    if (statements) console.log(`${engine}: ${label}: the 10 longest statements (seconds, statements): ${statements.slice(0, 10).map((t) => `${t.name} ${t.seconds.toFixed(1)} (${t.statements})`).join('; ')}`);
    return s;
  };
  /** The search index a server would build on the refreshed graph: its build time, size, and a search of the state's largest surname. */
  const searchIndex = async () => {
    const root = rootOf();
    try {
      const started = Date.now();
      const index = await root.index();
      await index.current();
      const s = index.status();
      const found = await index.search({ states: ['FL'], nameTerms: [], firstNameTerms: [], lastNameTerms: ['smi'], businessNameTerms: [], cityTerms: [], brokerageTerms: [], today: new Date().toISOString().slice(0, 10) }, 0, 50);
      console.log(
        `${engine}: graph opened and its search index built in ${((Date.now() - started) / 1000).toFixed(1)} s: ${s.rows.toLocaleString('en-US')} rows, ${(s.bytes / MB).toFixed(0)} MB; ` +
          `FL last name "smi": ${found?.total.toLocaleString('en-US')} found; bench process RSS ${(process.memoryUsage().rss / MB).toFixed(0)} MB`,
      );
    } finally {
      await root.close();
    }
  };
  const rootOf = () => compose(loadConfig(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<string, string>));
  /** WATCHERS accounts watch the first WATCHED agents of the file, each with an endpoint (stored deliveries: no server sends them here). */
  const watch = () =>
    addWatchers(rootOf, Array.from({ length: ROWS }, (_, i) => i).filter((i) => i % 40 !== 0).slice(0, WATCHED).map((i) => ({ state: 'FL', license_number: String(3000000 + i) })), WATCHERS, 'http://127.0.0.1:9/bench');
  /** The last run's alerts derived again alone, as a restart would: their time, count and deliveries. */
  const derivedAgain = async (refresh: RefreshSummary) => {
    const d = await deriveAgain(rootOf, 'fl-dbpr');
    console.log(
      `${engine}: ${WATCHERS} accounts watching ${WATCHED.toLocaleString('en-US')} agents: ${d.alerts.toLocaleString('en-US')} alerts, ${d.deliveries.toLocaleString('en-US')} deliveries stored; ` +
        `derived again alone in ${(d.ms / 1000).toFixed(1)} s (${d.again.alerts.toLocaleString('en-US')} alerts), ${((100 * d.ms) / refresh.elapsed_ms).toFixed(1)}% of the refresh's ${(refresh.elapsed_ms / 1000).toFixed(1)} s; bench process RSS ${(process.memoryUsage().rss / MB).toFixed(0)} MB`,
    );
  };
  const settings = neo4j ? `Neo4j from the local launcher (${process.env.NEO4J_CONF ?? 'tools/neo4j/neo4j.conf'})` : `LadybugDB on disk, ${config.GRAPH_BUFFER_POOL_MB} MB buffer pool`;
  console.log(`refresh of a ${ROWS.toLocaleString('en-US')}-row FL file by the ingest command on ${settings}, ${os.cpus().length} cores`);
  try {
    const first = await run('first load', file1, '2026-11-01');
    if (first) {
      await run('same snapshot again', file1, '2026-11-01');
      if (WATCHERS) await watch();
      const next = await run('next snapshot (20% changed)', file2, '2026-11-08');
      if (WATCHERS && next) await derivedAgain(next);
      await searchIndex();
    }
    const goal = engine === 'ladybug' ? 60 : 150;
    if (ROWS >= 450000) console.log(`${engine}: first load of ${ROWS.toLocaleString('en-US')} rows within ${goal} s: ${first && first.elapsed_ms < goal * 1000 ? 'met' : 'missed'}`);
  } finally {
    await memory?.close();
    await neo4j?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-bench-ingest-files-'));
  const file1 = path.join(dir, 'RE_rgn1.csv');
  const file2 = path.join(dir, 'RE_rgn1-next.csv');
  await writeFlFile(file1, ROWS, (i) => i % 10 === 0);
  // 20% changed: the rows that go inactive and the rows that come back.
  await writeFlFile(file2, ROWS, (i) => (i + 1) % 10 === 0, values.moves ? (i) => i % 40 === 5 || Math.floor(i / 40) % 100 === 1 : undefined);
  try {
    for (const engine of ENGINES) {
      const missing = engine === 'neo4j' && localNeo4jMissing();
      if (missing) console.log(`neo4j: skipped, no local Neo4j can run here: ${missing}`);
      else await bench(engine, file1, file2);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
