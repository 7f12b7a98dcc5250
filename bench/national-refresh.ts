// States refreshed inside the national store while the API serves verifies beside it: FL's own
// licences of the generated national dataset (bench/national-data.ts) written in the DBPR layout
// (RE_rgn*.csv), or with --states each named state's in its own layout (bench/state-files.ts),
// ingested by the national refresh (`npm run ingest -- --all`) into a copy of the loaded store, on both
// engines with their documented default settings (the server's buffer pool; the launcher's
// neo4j.conf unless NEO4J_CONF names another). Three stretches of verifies at one paced rate:
// none refreshing; the first snapshots (they take the states over from the dataset's canonical rows:
// every row is rewritten); the next snapshots with about 20% changed (the goal for FL alone: at
// most 3 minutes; for TX, FL, CA, NY and CT: 10 minutes on Neo4j, 15 on LadybugDB, issue 58).
// The command runs through the server, which holds the data dir (the embedded side store), or
// with --database-url (a PostgreSQL side store, as the compose file deploys) as its own process.
// With --watchers N (FL alone), N accounts watch every affiliate of FL's largest broker, each with a
// webhook endpoint on a receiver of the bench's: the next snapshot's alerts are derived again alone
// (the servers stopped) for their share of the refresh, and a third snapshot suspends that broker,
// whose fan-out (alerts written, deliveries due) is timed the same way (issue 59).
// Writes bench/results/national-refresh.md.
// Usage: npm run bench:national-refresh [-- --credentials 3000000 --engine ladybug,neo4j --baseline-seconds 60 --states TX,FL,CA,NY,CT --watchers 10 --timings]
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { parse } from 'csv-parse';
import { loadConfig } from '../src/config.js';
import type { RefreshSummary } from '../src/ingest/refresh/refresh.js';
import { ensureNational } from './national-data.js';
import { benchSchema } from './pg-schema.js';
import { apiKey, nationalStores, NEO4J_PASSWORD, prepare, prepareNeo4j, rss, waitFor } from './national-stores.js';
import { paced, quantile, type Scenario } from './paced.js';
import { ingestCommand, neo4jMemory } from './refresh-runs.js';
import { STATE_LAYOUTS, writeStateSnapshots, type LayoutState } from './state-files.js';
import { freePort, localNeo4jMissing, startLocalNeo4j } from '../test/helpers/local-neo4j.js';
import { ROOT } from '../test/helpers/processes.js';
import { compose } from '../src/compose/index.js';
import { addWatchers, deriveAgain, largestAffiliates, type Derived } from './watchers.js';

const { values } = parseArgs({
  options: {
    credentials: { type: 'string', default: '3000000' },
    dir: { type: 'string', default: 'data/bench-national' },
    seed: { type: 'string', default: '20261123' },
    engine: { type: 'string', default: 'ladybug,neo4j' },
    // The verifies' rate, as a share of the server's /health saturation (as bench:national paces).
    'health-share': { type: 'string', default: '0.05' },
    'baseline-seconds': { type: 'string', default: '60' },
    results: { type: 'string', default: 'bench/results/national-refresh.md' },
    // A PostgreSQL for the side store (a schema of the bench's own, dropped after), else PGlite in the data dir.
    'database-url': { type: 'string' },
    // API processes on the one Neo4j store and PostgreSQL side store, the verifies shared among them
    // (default: 2 with --database-url, else 1; LadybugDB is always one, its process holds the file).
    servers: { type: 'string' },
    // The states refreshed, each in its own layout, one national refresh per stretch.
    states: { type: 'string', default: 'FL' },
    // A folder for each API process's CPU profile (node --cpu-prof, written when it stops): where a refresh's time goes.
    'cpu-prof': { type: 'string' },
    // Accounts watching every affiliate of FL's largest broker (0: no watchlist load).
    watchers: { type: 'string', default: '0' },
    // Where each refresh's graph time went: the ingest command's statement times (--timings), the longest in the notes.
    timings: { type: 'boolean', default: false },
  },
});
const WATCHERS = Number(values.watchers);
/** FL's largest broker in the generated dataset (Zipf rank 1), whose affiliates the watchers watch. */
const LARGEST = 'CQ0000001';
const STATES = values.states!.split(',').map((s) => s.trim().toUpperCase()) as LayoutState[];
for (const s of STATES) if (!STATE_LAYOUTS.includes(s)) throw new Error(`--states takes ${STATE_LAYOUTS.join(', ')}: not ${s}`);
if (WATCHERS && values.states !== 'FL') throw new Error('--watchers takes FL alone (--states FL)');
const NAMES = STATES.join(', ');
const STORES = nationalStores(path.resolve(values.dir), Number(values.credentials), Number(values.seed));
const WORK = path.join(STORES.root, `refresh-${STORES.credentials}-${STORES.seed}`);
/** The next snapshot's goal: FL alone 3 minutes (issue 19); a national refresh 10 minutes on Neo4j, 15 on LadybugDB (issue 58). */
const goalSeconds = (engine: 'ladybug' | 'neo4j') => (STATES.length === 1 ? 180 : engine === 'neo4j' ? 600 : 900);
/** Issue 57's goal: every API process serves the published snapshot within this of the publish. */
const SERVE_GOAL_SECONDS = 10;

const METRICS_TOKEN = 'national-refresh-bench-metrics';

/** The server's gate holds by work (lvs_graph_gate_*: LadybugDB), from /metrics. */
async function gateHolds(base: string): Promise<Map<string, { holds: number; held: number; longest: number }>> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const out = new Map<string, { holds: number; held: number; longest: number }>();
  for (const m of text.matchAll(/^lvs_graph_gate_(holds_total|held_seconds_total|longest_hold_seconds)\{engine="[^"]+",work="([^"]+)"\} (\S+)$/gm)) {
    const h = out.get(m[2]) ?? { holds: 0, held: 0, longest: 0 };
    h[m[1] === 'holds_total' ? 'holds' : m[1] === 'held_seconds_total' ? 'held' : 'longest'] = Number(m[3]);
    out.set(m[2], h);
  }
  return out;
}

interface Key {
  state: string;
  license_number: string;
}

/** The verifies' keys: every 5th credential of the whole dataset. */
async function sampleKeys(dataset: string): Promise<Key[]> {
  const keys: Key[] = [];
  let i = 0;
  for await (const r of fs.createReadStream(path.join(dataset, 'credentials.csv')).pipe(parse({ columns: true }))) {
    if (i++ % 5 === 0) keys.push({ state: r.state, license_number: r.license_number });
  }
  return keys;
}

async function sideStore(url: string | undefined) {
  if (!url) return { url: undefined, label: 'the embedded side store (PGlite, in the server)', drop: async () => undefined };
  return { ...(await benchSchema(url, `lvs_refresh_bench_${process.pid}`)), label: 'PostgreSQL for the side store (the ingest command in its own process)' };
}

const stats = (xs: number[]) => {
  const sorted = [...xs].sort((p, q) => p - q);
  return { n: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? Number.NaN };
};
const statuses = (others: Record<string, number>) => Object.entries(others).map(([status, n]) => `${n} ${status}`).join(', ') || '0';
const ms = (x: number) => (Number.isNaN(x) ? '-' : x.toFixed(1));

/**
 * Polls each API process's /health every 100 ms and notes when its search index first shows each
 * generation: `until(g, at)` then waits (at most 180 s) for every process to show g or later, and
 * says how many seconds after `at` each did (Infinity: not within the wait).
 */
function servingTimes(bases: string[]) {
  const seen = bases.map(() => new Map<number, number>());
  // The build that took each process to each generation: how long its read and patch (or export and build) took.
  const builds = bases.map(() => new Map<number, { ms?: number; read_ms?: number; index_ms?: number; merge_ms?: number; changed?: number }>());
  let stopped = false;
  const poll = async (i: number) => {
    while (!stopped) {
      const h = await fetch(`${bases[i]}/health`).then((r) => r.json() as Promise<{ search_index?: { generation?: number; last_build?: { ms?: number; read_ms?: number; index_ms?: number; merge_ms?: number; changed?: number } } }>, () => undefined);
      const g = h?.search_index?.generation;
      if (g !== undefined) {
        if (!seen[i].has(g)) seen[i].set(g, Date.now());
        // Read again while the generation stays: a patch's merge is added after it is served.
        builds[i].set(g, h?.search_index?.last_build ?? {});
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const polls = bases.map((_, i) => poll(i));
  const first = (i: number, g: number) => Math.min(...[...seen[i]].filter(([x]) => x >= g).map(([, t]) => t));
  return {
    async until(g: number, at: number) {
      for (const deadline = Date.now() + 180_000; Date.now() < deadline && bases.some((_, i) => !Number.isFinite(first(i, g))); ) await new Promise((r) => setTimeout(r, 100));
      return bases.map((_, i) => (first(i, g) - at) / 1000);
    },
    /** Each process's build that first showed `g` or later. */
    builds: (g: number) => bases.map((_, i) => builds[i].get(Math.min(...[...builds[i].keys()].filter((x) => x >= g)))),
    stop: () => {
      stopped = true;
      return Promise.all(polls);
    },
  };
}

/** A copy of the snapshot folder `from` in which LARGEST is suspended (its DBPR row's two status cells). */
function withLargestSuspended(from: string, to: string) {
  fs.rmSync(to, { recursive: true, force: true });
  fs.cpSync(from, to, { recursive: true });
  const file = path.join(to, 'FL', 'RE_rgn1.csv');
  const text = fs.readFileSync(file, 'utf8');
  const row = new RegExp(`"${LARGEST}","[^"]*","[^"]*"`);
  if (!row.test(text)) throw new Error(`${LARGEST} is not in ${file}`);
  fs.writeFileSync(file, text.replace(row, `"${LARGEST}","Suspended",""`));
}

/** What a stretch's alerts cost: their derivation alone against the refresh, and the fan-out's goal (60 s). */
function watchNote(label: string, d: Derived, s: RefreshSummary, delivered: number, watched: number) {
  const share = (100 * d.ms) / s.elapsed_ms;
  const fanOut = label.includes('suspended');
  return (
    `- ${label}: ${WATCHERS} accounts watching ${watched.toLocaleString('en-US')} agents of ${LARGEST}, each with an endpoint on the bench's receiver: ` +
    `${d.alerts.toLocaleString('en-US')} alerts and ${d.deliveries.toLocaleString('en-US')} deliveries stored with the refresh (${delivered.toLocaleString('en-US')} deliveries received by the bench so far); ` +
    `derived again alone in ${(d.ms / 1000).toFixed(1)} s (${d.again.alerts.toLocaleString('en-US')} alerts, ${d.again.deliveries.toLocaleString('en-US')} deliveries due), ` +
    (fanOut ? `the fan-out within 60 s: ${d.ms <= 60_000 ? 'met' : 'missed'}` : `${share.toFixed(1)}% of the refresh's ${(s.elapsed_ms / 1000).toFixed(1)} s (goal at most 20%: ${share <= 20 ? 'met' : 'missed'})`)
  );
}

/** An HTTP receiver for webhook deliveries: answers 200 and counts them. */
async function receiver() {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received: () => received, close: () => new Promise((done) => server.close(done)) };
}

async function bench(engine: 'ladybug' | 'neo4j', dataset: string, keys: Key[], roots: string[], watched: Key[]): Promise<string> {
  // A copy of the loaded store: the refresh changes it, and the other benches reuse the original.
  fs.rmSync(WORK, { recursive: true, force: true });
  fs.mkdirSync(WORK, { recursive: true });
  const dataDir = path.join(WORK, 'server');
  fs.mkdirSync(dataDir);
  let neo4j;
  const copyStarted = Date.now();
  if (engine === 'ladybug') {
    fs.copyFileSync(path.join(STORES.ladybugDir, 'graph.lbug'), path.join(dataDir, 'graph.lbug'));
  } else {
    const conf = process.env.NEO4J_CONF;
    // The original store is built (and checked) with the national bench's settings; the copy runs on the launcher's, or NEO4J_CONF's.
    await (await prepareNeo4j(STORES, dataset)).neo4j.stop();
    if (conf === undefined) delete process.env.NEO4J_CONF;
    else process.env.NEO4J_CONF = conf;
    execFileSync('cp', ['-a', path.join(STORES.neo4jDir, 'neo4j'), path.join(WORK, 'neo4j')]);
    neo4j = await startLocalNeo4j({ dataDir: WORK, password: NEO4J_PASSWORD });
  }
  const copySeconds = (Date.now() - copyStarted) / 1000;
  const memory = neo4j && neo4jMemory(neo4j);
  const side = await sideStore(values['database-url']);
  const key = await apiKey(dataDir, side.url);
  const engineEnv = neo4j ? { NEO4J_URI: neo4j.uri, NEO4J_USER: neo4j.user, NEO4J_PASSWORD } : {};
  // The watchers, stored before the servers start (the embedded side store is one process's).
  const hooks = WATCHERS ? await receiver() : undefined;
  const rootOf = () => compose(loadConfig({ DATA_DIR: dataDir, ...engineEnv, ...(side.url ? { DATABASE_URL: side.url } : {}) }));
  if (hooks) await addWatchers(rootOf, watched, WATCHERS, hooks.url);
  // The store's files in the OS page cache, as on a server up for a while.
  for (const file of execFileSync('find', [WORK, '-type', 'f'], { encoding: 'utf8' }).split('\n').filter(Boolean)) for await (const _ of fs.createReadStream(file, { highWaterMark: 1 << 22 })) void _;
  const servers = engine === 'neo4j' ? Number(values.servers ?? (side.url ? 2 : 1)) : 1;
  if (servers > 1 && !side.url) throw new Error('--servers above 1 shares the side store: give --database-url');
  const procs: { base: string; child: ChildProcess }[] = [];
  const profiled = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['cpu-prof'])}`] : [];
  const lines: string[] = [];
  const headers = { authorization: `Bearer ${key}` };
  // A log per API process, appended to when the servers start again (after a derivation run alone).
  const logOf = (i: number) => path.join(STORES.root, `refresh-server-${engine}${i ? `-${i + 1}` : ''}.log`);
  for (let i = 0; i < servers; i++) fs.rmSync(logOf(i), { force: true });
  const startServers = async () => {
    for (let i = 0; i < servers; i++) {
      // Each API process has a data dir of its own (its kept search index); the side store is shared.
      const dir = i === 0 ? dataDir : path.join(WORK, `server-${i + 1}`);
      fs.mkdirSync(dir, { recursive: true });
      const port = await freePort();
      // The bench's account gets a rate above its load, as in bench:national: an open-loop client sends
      // what a pause held back at once, which an enterprise burst (200) refuses with 429.
      const env = { ...process.env, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', LOG_FORMAT: 'json', LOG_LEVEL: 'warn', DEMO_DATA: 'false', RATE_LIMITS: 'enterprise=100000:100000', METRICS_TOKEN, ...engineEnv, DATABASE_URL: side.url, ...(hooks ? { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } : {}) };
      // The server's log beside the results, for what went wrong.
      const log = fs.openSync(logOf(i), 'a');
      procs.push({ base: `http://127.0.0.1:${port}`, child: spawn(process.execPath, [...profiled, '--import', 'tsx', 'src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', log, 'inherit'] }) });
      fs.closeSync(log);
    }
    for (const p of procs) {
      await waitFor(`${p.base}/health`, p.child);
      await waitFor(`${p.base}/api/v1/readiness`, p.child, 600_000, headers);
    }
  };
  const stopServers = async () => {
    for (const { child } of procs) {
      child.kill('SIGTERM');
      await new Promise((done) => (child.exitCode !== null ? done(null) : child.once('exit', done)));
    }
    procs.length = 0;
  };
  try {
    await startServers();
    let [{ base, child: server }] = procs;
    const health = await new Promise<autocannon.Result>((resolve, reject) => autocannon({ url: `${base}/health`, connections: 16, duration: 5 }, (err, r) => (err ? reject(err) : resolve(r))));
    const rate = Math.max(1, Math.round(Number(values['health-share']) * health.requests.average));
    let k = 0;
    // Keys in a fixed stride through the sample: every state, FL in its share, the same order on both engines.
    const verify: Scenario = { name: 'verify', next: () => { const x = keys[(k += 7919) % keys.length]; return { path: `/api/v1/licensees/verify?state=${x.state}&license_number=${x.license_number}` }; } };
    // The rate shared among the API processes, as a load balancer would.
    const pacedAll = async (count: number, until?: () => boolean) => {
      const runs = await Promise.all(procs.map((p) => paced(p.base, headers, verify, rate / procs.length, Math.ceil(count / procs.length), 256, until)));
      const others: Record<string, number> = {};
      for (const r of runs) for (const [status, n] of Object.entries(r.others)) others[status] = (others[status] ?? 0) + n;
      return { samples: runs.flatMap((r) => r.samples), others };
    };
    await pacedAll(5 * rate);
    const baseline = await pacedAll(Number(values['baseline-seconds']) * rate);
    const settings =
      engine === 'ladybug'
        ? `LadybugDB on disk, the server's defaults (buffer pool ${loadConfig().GRAPH_BUFFER_POOL_MB} MB)`
        : `Neo4j 5.26 from the local launcher (${path.relative(ROOT, process.env.NEO4J_CONF ?? path.join(ROOT, 'tools/neo4j/neo4j.conf'))}); the store copied in ${copySeconds.toFixed(0)} s`;
    const sideLabel = `; ${side.label}${procs.length > 1 ? `; ${procs.length} API processes` : ''}`;
    lines.push(
      `## ${engine === 'ladybug' ? 'LadybugDB' : 'Neo4j'}`,
      '',
      `${STORES.credentials.toLocaleString('en-US')} credentials (seed ${STORES.seed}); ${settings}${sideLabel}; ${os.cpus().length} cores, Node ${process.version}; ${new Date().toISOString().slice(0, 10)}. ` +
        `Verifies paced at ${rate} req/s (${Number(values['health-share']) * 100}% of this server's /health saturation, ${health.requests.average.toFixed(0)} req/s${procs.length > 1 ? `, shared evenly among the ${procs.length} API processes` : ''}), keys from every 5th credential of every state.`,
      '',
      '| stretch | seconds | rows | inserted, updated, unchanged | links opened, closed | server peak RSS | verifies | p50 ms | p99 ms | max ms | not 200 |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
    );
    const b = stats(baseline.samples);
    lines.push(`| no refresh | ${values['baseline-seconds']} | | | | ${rss(server.pid!).now.toFixed(0)} MB | ${b.n} | ${ms(b.p50)} | ${ms(b.p99)} | ${ms(b.max)} | ${statuses(baseline.others)} |`);
    const notes: string[] = [];
    // The takeover confirms what leaves the source: CT numbers its licences its own way, and NY and
    // CA list current licences only.
    const stretches: [string, string, string, string[]][] = [
      [`first snapshot (takes ${NAMES} over)`, roots[0], '2026-11-08', ['--confirm-retire']],
      ['next snapshot (20% changed)', roots[1], '2026-11-15', []],
      ...(hooks ? [[`${LARGEST} suspended (the watched agents' broker)`, roots[2], '2026-11-22', []] as [string, string, string, string[]]] : []),
    ];
    for (const [n, [label, root, snapshot, extra]] of stretches.entries()) {
      memory?.reset();
      const gateBefore = engine === 'ladybug' ? await gateHolds(base) : undefined;
      let done = false;
      let peak = 0;
      const sampler = setInterval(() => (peak = Math.max(peak, rss(server.pid!).now)), 500);
      const started = Date.now();
      const serving = neo4j ? servingTimes(procs.map((p) => p.base)) : undefined;
      const timings = values.timings ? ['--timings'] : [];
      const ingest = ingestCommand(['--all', '--snapshot', snapshot, ...extra, ...timings, root], { DATA_DIR: dataDir, ...engineEnv, DATABASE_URL: side.url }).finally(() => (done = true));
      const during = await pacedAll(0, () => done);
      const { summary: s, statements, error, peakRss } = await ingest;
      if (statements) {
        const top = statements.slice(0, 20).map((t) => `${t.name} ${t.seconds.toFixed(1)} s (${t.statements})`);
        notes.push(`- ${label}: where the graph's time went (the ingest command's --timings: seconds, statements; the 20 longest of ${statements.length}): ${top.join('; ')}`);
      }
      clearInterval(sampler);
      // A national refresh is served once its last state's publish is.
      const published = STATES.length > 1 ? memory?.lastPublished() : memory?.published();
      if (serving && published) {
        // Seconds from the publish until each API process's search index shows its generation.
        const after = await serving.until(published.generation, published.at);
        const built = serving.builds(published.generation);
        const worst = Math.max(...after);
        notes.push(
          `- ${label}: every API process serves ${STATES.length > 1 ? 'the last state\'s publish' : 'the published snapshot'} ${Number.isFinite(worst) ? `${worst.toFixed(1)} s` : 'not within 180 s'} after the publish (${after.map((x) => (Number.isFinite(x) ? x.toFixed(1) : '-')).join(', ')} s; /health polled every 100 ms, the publish seen within about 0.3 s; the build that took each there, from its start: ${built.map((b) => (b?.ms === undefined ? '-' : `${(b.ms / 1000).toFixed(1)} s${b.read_ms === undefined ? '' : ` (${(b.read_ms / 1000).toFixed(1)} s to read its rows${b.index_ms === undefined ? '' : `, ${(b.index_ms / 1000).toFixed(1)} s to index them`})`}${b.changed === undefined ? ', states read whole' : `, ${b.changed.toLocaleString('en-US')} rows patched${b.merge_ms === undefined ? '' : `, merged in ${(b.merge_ms / 1000).toFixed(1)} s later`}`}`)).join(', ')}); within ${SERVE_GOAL_SECONDS} s: ${worst <= SERVE_GOAL_SECONDS ? 'met' : 'missed'}`,
        );
      }
      await serving?.stop();
      if (memory && published) {
        // The ingest command has exited: it collected what its publish replaced once every API process
        // took the publish up, or it stopped waiting for them (versions.ts) and left it to the next run.
        const collected = await memory.collected(published.at, 5_000);
        // With the embedded side store the command runs in the server, which collects after the summary.
        const notSeen = side.url ? 'left to the next refresh: the ingest command stopped waiting for the API processes to take the publish up (300 s)' : 'not seen collected within 5 s of the summary (the command runs in the server, which collects in the background; the next run collects what is left before it writes)';
        notes.push(`- ${label}: what the publish replaced ${Number.isFinite(collected) ? `collected ${collected.toFixed(1)} s after the publish, by the ingest command before it exited` : notSeen}`);
      }
      // One state: its run's own time; several: the command's, from its start to its end.
      const seconds = s && STATES.length === 1 ? s.elapsed_ms / 1000 : (Date.now() - started) / 1000;
      const d = stats(during.samples);
      const counts = (x: RefreshSummary) => [`${x.rows_read.toLocaleString('en-US')}`, `${x.inserted}, ${x.updated}, ${x.unchanged}`, `${x.edges_opened}, ${x.edges_closed}`];
      lines.push(`| ${label}${s ? '' : ': failed'} | ${seconds.toFixed(1)} | ${(s ? counts(s) : ['-', '-', '-']).join(' | ')} | ${peak.toFixed(0)} MB | ${d.n} | ${ms(d.p50)} | ${ms(d.p99)} | ${ms(d.max)} | ${statuses(during.others)} |`);
      if (error) notes.push(`- ${label} failed: ${error}`);
      if (memory) notes.push(`- ${label}: ${memory.peaks()}`);
      if (gateBefore) {
        // The longest a read waited at LadybugDB's gate (decision 0026), timed at the gate by the server.
        const after = await gateHolds(base);
        const parts = [...after].map(([work, h]) => {
          const b = gateBefore.get(work) ?? { holds: 0, held: 0, longest: 0 };
          return `${work} ${h.holds - b.holds} time(s), ${((h.held - b.held) * 1000).toFixed(0)} ms in all`;
        });
        const longest = Math.max(0, ...[...after.values()].map((h) => h.longest));
        notes.push(`- ${label}: reads held at the engine's gate: ${parts.join('; ') || 'never'}; the longest hold since the server started ${(longest * 1000).toFixed(0)} ms (goal 100 ms: ${longest <= 0.1 ? 'met' : 'missed'})`);
      }
      if (side.url) notes.push(`- ${label}: the ingest command's peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MB`);
      if (label.startsWith('next') && s) notes.push(`- next snapshot within ${goalSeconds(engine)} s: ${seconds <= goalSeconds(engine) ? 'met' : 'missed'} (${seconds.toFixed(1)} s)`);
      if (!s) break;
      if (hooks && n > 0) {
        // The run's alerts derived again alone, as a start's recovery would: the servers stop meanwhile.
        const delivered = hooks.received();
        await stopServers();
        const d = await deriveAgain(rootOf, 'fl-dbpr');
        notes.push(watchNote(label, d, s, delivered, watched.length));
        if (n + 1 < stretches.length) {
          await startServers();
          [{ base, child: server }] = procs;
        }
      }
    }
    if (engine === 'ladybug') notes.push('- LadybugDB refreshes a copy of its file and swaps it in: the max column of each refresh holds the pause at the swap.');
    lines.push('', ...notes, '');
    return lines.join('\n');
  } finally {
    await stopServers();
    await hooks?.close();
    await memory?.close();
    await neo4j?.stop();
    await side.drop();
    fs.rmSync(WORK, { recursive: true, force: true });
  }
}

async function main() {
  const engines = values.engine!.split(',') as ('ladybug' | 'neo4j')[];
  // The LadybugDB store is loaded only for a run that measures it.
  const dataset = engines.includes('ladybug') ? (await prepare(STORES)).dataset : (await ensureNational(STORES.root, STORES)).folder;
  const roots = [path.join(STORES.root, 'states-first'), path.join(STORES.root, 'states-next'), path.join(STORES.root, 'states-suspended')];
  for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
  const written = await writeStateSnapshots(dataset, roots[0], roots[1], STATES);
  const watched = WATCHERS ? await largestAffiliates(dataset, LARGEST) : [];
  if (WATCHERS) withLargestSuspended(roots[1], roots[2]);
  console.log(`state files: ${Object.entries(written).map(([s, n]) => `${s} ${n.first.toLocaleString('en-US')} and ${n.next.toLocaleString('en-US')} rows`).join(', ')}`);
  const keys = await sampleKeys(dataset);
  const sections: string[] = [];
  try {
    for (const engine of engines) {
      const missing = engine === 'neo4j' && localNeo4jMissing();
      if (missing) sections.push(`## Neo4j\n\nskipped: ${missing}\n`);
      else sections.push(await bench(engine, dataset, keys, roots, watched));
      // Written after each engine: a later failure keeps what was measured.
      const text = `# ${NAMES} refreshed inside the national store\n\n${sections.join('\n')}`;
      fs.mkdirSync(path.dirname(values.results!), { recursive: true });
      fs.writeFileSync(values.results!, text);
      console.log(text);
    }
  } finally {
    for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
