// National-scale HTTP benchmark: the generated national dataset (bench/national-data.ts) loaded
// into an on-disk LadybugDB graph (or reused), the real server started on it as its own process
// with its full middleware (helmet, pino-http logging, API-key auth, metering), and each endpoint
// driven over loopback: latency percentiles at a fixed rate (an evenly paced open loop), then
// saturation throughput with autocannon, with uniform and Zipf-skewed keys. The same server's
// /health and a bare Express 5 JSON route (its own process) are measured as ceilings. Prints server RSS, start-up time on the
// loaded graph and the load time, and writes the results (medians and ranges over the runs) to
// bench/results/national.md.
// With --engine neo4j the same dataset is also loaded into a local Neo4j (the repo's launcher,
// tools/neo4j, with bench/neo4j-bench.conf) by Neo4j's offline importer, and the same scenarios run through the
// server on it: both engines' rows in one results file, from one run on one machine.
// Usage: npm run bench:national [-- --credentials 3000000 --runs 3 --seconds 5 --health-share 0.05 --engine neo4j --only search,overload]
// --credentials takes a list (300000,3000000): each size is a run of its own, and the results file
// holds every size's sections and how each page's p50 grows with the data.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import neo4jDriver, { type Driver } from 'neo4j-driver';
import { parse } from 'csv-parse';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { credentialId } from '../src/domain/identity.js';
import { openPglite } from '../src/store/pglite-store.js';
import { zipf as zipfWeights, zipfRank } from './national-data.js';
import { apiKey, du, nationalStores, NEO4J_PASSWORD, prepare, prepareNeo4j, rss, searchSeed, waitFor, type Prepared } from './national-stores.js';
import { median, paced, quantile, type Scenario } from './paced.js';
import { rosterCost, rosterCsv } from './national-roster.js';
import { operatingCost } from './national-operating.js';
import { freePort } from '../test/helpers/local-neo4j.js';

const { values } = parseArgs({
  options: {
    credentials: { type: 'string', default: '3000000' },
    dir: { type: 'string', default: 'data/bench-national' },
    seed: { type: 'string', default: '20261123' },
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    // Latency runs are paced at this share of the run's /health saturation, the same rate for both
    // engines: machines here differ up to threefold from day to day, so a fixed rate does not carry over.
    'health-share': { type: 'string', default: '0.05' },
    // Concurrent graph queries the server runs, for both engines (LadybugDB connections, Neo4j's pool).
    'graph-connections': { type: 'string', default: '4' },
    connections: { type: 'string', default: '16' },
    'buffer-pool-mb': { type: 'string', default: '512' },
    engine: { type: 'string', default: 'ladybug' },
    results: { type: 'string', default: 'bench/results/national.md' },
    // Loads (or reuses) the graphs and stops: for looking at plans on the loaded stores.
    'prepare-only': { type: 'boolean', default: false },
    // Only the scenarios whose names hold one of these comma-separated words (say, "search").
    only: { type: 'string' },
    // Where one size's run of a list writes each scenario's medians (JSON), for the list's summary.
    'medians-json': { type: 'string' },
    // Every scenario driven at saturation this long before the measured runs, not measured: the
    // JVM compiles Neo4j's query paths over thousands of calls (a search page's query took four
    // times the JVM CPU over its first 1,800 calls: decision 0034), as a long-running server has.
    'warm-up': { type: 'string', default: '10' },
  },
});
if (!['ladybug', 'neo4j'].includes(values.engine!)) throw new Error('--engine is ladybug or neo4j');
const SIZES = values.credentials!.split(',').map(Number);
const CREDENTIALS = SIZES[0];
const SEED = Number(values.seed);
const RUNS = Number(values.runs);
const SECONDS = Number(values.seconds);
const HEALTH_SHARE = Number(values['health-share']);
const GRAPH_POOL = values['graph-connections']!;
const CONNECTIONS = Number(values.connections);
const STORES = nationalStores(path.resolve(values.dir), CREDENTIALS, SEED);
const DATA_DIR = STORES.ladybugDir;
const NEO4J_DIR = STORES.neo4jDir;
const WARM_UP_SECONDS = 1;
const WARM_UP_RUN_SECONDS = Number(values['warm-up']);
const RESULTS = pathToFileURL(path.resolve(values.results!));

interface Key {
  state: string;
  license_number: string;
  type: string;
  last_name: string;
  /** The name a caller would send: the person's full name, or the business name. */
  name: string;
}

/**
 * Keys the requests sample: every 5th credential of the dataset for uniform verifies (600k at 3M,
 * twelve times as many as the server keeps records for, so nearly every one is a licence not read
 * before, as with uniform keys over the whole file), and every 50th for the rest.
 */
async function sampleKeys(dataset: string): Promise<{ keys: Key[]; wide: Key[] }> {
  const keys: Key[] = [];
  const wide: Key[] = [];
  let i = 0;
  for await (const r of fs.createReadStream(path.join(dataset, 'credentials.csv')).pipe(parse({ columns: true }))) {
    if (i % 5 === 0) wide.push({ state: r.state, license_number: r.license_number, type: r.license_type, last_name: r.last_name, name: r.full_name || r.business_name || [r.first_name, r.last_name].join(' ') });
    if (i % 50 === 0) keys.push(wide[wide.length - 1]);
    i += 1;
  }
  return { keys, wide };
}

/**
 * Share of a file held in the OS page cache (util-linux fincore), or NaN where fincore is absent.
 * Key reads that miss LadybugDB's buffer pool are served from it; on a VM whose host reclaims
 * page cache unused for a while, it shrinks between scenarios, and latency tails follow.
 */
function cachedShare(file: string): number {
  try {
    const [resident, size] = execFileSync('fincore', ['--bytes', '--noheadings', '--output', 'RES,SIZE', file], { encoding: 'utf8' }).trim().split(/\s+/).map(Number);
    return resident / size;
  } catch {
    return Number.NaN;
  }
}

/**
 * Open loop at `rate` for `seconds`, past what the server serves: the share shed (503), the
 * served requests' p99, p99.9 of every answer, and how long after the last request was sent a
 * verify answered normally (200 within 100 ms) again.
 */
async function overload(base: string, headers: Record<string, string>, s: Scenario, rate: number, seconds: number) {
  // Open loop for real: no request waits in this process for a socket.
  const r = await paced(base, headers, s, rate, Math.round(rate * seconds), 8192);
  const probe = `${base}/api/v1/licensees/verify?state=WY&license_number=BK0000001`;
  let recovered = Number.NaN;
  while (performance.now() - r.sent < 60_000) {
    const at = performance.now();
    const res = await fetch(probe, { headers }).catch(() => undefined);
    if (res?.status === 200 && performance.now() - at < 100) {
      recovered = performance.now() - r.sent;
      break;
    }
    await new Promise((done) => setTimeout(done, 20));
  }
  r.samples.sort((a, b) => a - b);
  r.all.sort((a, b) => a - b);
  return { sent: r.all.length, shed: r.shed, other: r.bad - r.shed, servedP99: quantile(r.samples, 0.99), allP999: quantile(r.all, 0.999), recovered };
}

async function drive(base: string, headers: Record<string, string>, s: Scenario, rate: number | null, count = 0, seconds = SECONDS) {
  if (rate) {
    // A second of the scenario first, not measured: the first requests of a code path after a
    // start run before V8 has compiled it (a restarted server's first second of uniform
    // verifies measured p99 16-21 ms, the next runs 6.5-8.7), and a steady rate is what is asked.
    await paced(base, headers, s, rate, WARM_UP_SECONDS * rate);
    const { samples, bad } = await paced(base, headers, s, rate, count);
    samples.sort((a, b) => a - b);
    await settle(base, headers);
    return { p50: quantile(samples, 0.5), p95: quantile(samples, 0.95), p99: quantile(samples, 0.99), rps: (samples.length * rate) / count, count, bad };
  }
  const samples: number[] = [];
  let bad = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        headers: { ...headers, 'content-type': 'application/json' },
        connections: CONNECTIONS,
        duration: seconds,
        requests: [
          {
            method: s.method ?? 'GET',
            setupRequest: (req: autocannon.Request) => {
              const n = s.next();
              return { ...req, path: n.path, body: n.body };
            },
          },
        ],
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on('response', (_c, status, _b, ms) => {
      if (status === 200) samples.push(ms);
      else bad += 1;
    });
  });
  samples.sort((a, b) => a - b);
  // Requests still running in the server would weigh on the next measurement: wait them out.
  await settle(base, headers);
  return { p50: quantile(samples, 0.5), p95: quantile(samples, 0.95), p99: quantile(samples, 0.99), rps: result.requests.average, count: result.requests.total, bad: bad + result.errors + result.timeouts };
}

/** Waits (at most two minutes) until a verify answers within 100 ms again. */
async function settle(base: string, headers: Record<string, string>) {
  if (!headers.authorization) return;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const started = Date.now();
    await fetch(`${base}/api/v1/licensees/verify?state=WY&license_number=BK0000001`, { headers }).catch(() => undefined);
    if (Date.now() - started < 100) return;
  }
}

/**
 * The scenarios; `graphRead` marks what a graph database is for (supervisors, hierarchy,
 * affiliates), gated more strictly on Neo4j. `targets`: absolute p99 (and p95) goals in ms.
 */
function scenarios({ keys, wide }: { keys: Key[]; wide: Key[] }, random: () => number): { scenario: Scenario; graphRead?: boolean; targets?: { p95?: number; p99: number } }[] {
  // Zipf (s = 1) over the sampled keys in their file order: a few keys take most requests.
  const cumulative = zipfWeights(keys.length, 1);
  const zipf = () => keys[zipfRank(cumulative, random())];
  const uniform = () => wide[Math.floor(random() * wide.length)];
  const agents = keys.filter((k) => k.type === 'salesperson');
  const agent = () => agents[Math.floor(random() * agents.length)];
  const inState = (state: string) => keys.filter((k) => k.state === state && k.last_name);
  const fl = inState('FL');
  const ca = inState('CA');
  const flBrokerages = keys.filter((k) => k.state === 'FL' && k.type === 'brokerage' && k.name);
  const path1 = (k: Key) => `/api/v1/licensees/${k.state}/${encodeURIComponent(k.license_number)}`;
  const verify = (k: Key) => `/api/v1/licensees/verify?state=${k.state}&license_number=${encodeURIComponent(k.license_number)}`;
  // A year of months before the generated snapshot (2026-11-01).
  const [YEAR_BEFORE_SNAPSHOT, SNAPSHOT_MONTH_END] = ['2025-11-01', '2026-10-31'];
  // The largest brokerage of FL is its first (Zipf rank 1): CQ0000001.
  const largest = '/api/v1/licensees/FL/CQ0000001/affiliates';
  return [
    { scenario: { name: 'verify, uniform keys', next: () => ({ path: verify(uniform()) }) }, targets: { p99: 10 } },
    { scenario: { name: 'verify, Zipf keys', next: () => ({ path: verify(zipf()) }) }, targets: { p99: 10 } },
    {
      // A tenth of the rate: as many batches as verifies would be a hundred times the licences a
      // second that the verify scenarios ask of single lookups.
      scenario: { name: 'batch of 100, Zipf keys (latency at a tenth of the rate)', rateFactor: 0.1, method: 'POST', next: () => ({ path: '/api/v1/licensees/batch', body: JSON.stringify({ licenses: Array.from({ length: 100 }, () => zipf()).map((k) => ({ state: k.state, license_number: k.license_number })) }) }) },
      targets: { p99: 40 },
    },
    // Issue 36: a name with each licence, matched against the record's (and recorded in the verification log).
    { scenario: { name: 'verify with a name, Zipf keys', next: () => { const k = zipf(); return { path: `${verify(k)}&name=${encodeURIComponent(k.name)}` }; } }, targets: { p99: 10 } },
    {
      scenario: { name: 'batch of 100 with names, Zipf keys (latency at a tenth of the rate)', rateFactor: 0.1, method: 'POST', next: () => ({ path: '/api/v1/licensees/batch', body: JSON.stringify({ licenses: Array.from({ length: 100 }, () => zipf()).map((k) => ({ state: k.state, license_number: k.license_number, name: k.name })) }) }) },
      targets: { p99: 40 },
    },
    // Searches are paced at a tenth of the rate too (issue 33's gate): both engines alike.
    { scenario: { name: 'search FL, last-name prefix', rateFactor: 0.1, next: () => ({ path: `/api/v1/licensees?state=FL&last_name=${fl[Math.floor(random() * fl.length)].last_name.slice(0, 3)}&per_page=25` }) }, targets: { p95: 30, p99: 60 } },
    {
      scenario: { name: 'search CA, substring + status', rateFactor: 0.1, next: () => { const n = ca[Math.floor(random() * ca.length)].last_name; return { path: `/api/v1/licensees?state=CA&last_name=${n.slice(1, 4)}&status=active&per_page=25` }; } },
      targets: { p95: 30, p99: 60 },
    },
    // The unfiltered state listing (a page of the first 400) and the brokerage filter: the search index answers both too.
    { scenario: { name: 'search FL, unfiltered listing', rateFactor: 0.1, next: () => ({ path: `/api/v1/licensees?state=FL&per_page=25&page=${1 + Math.floor(random() * 400)}` }) }, targets: { p95: 30, p99: 60 } },
    {
      scenario: { name: 'search FL, brokerage', rateFactor: 0.1, next: () => ({ path: `/api/v1/licensees?state=FL&brokerage=${encodeURIComponent(flBrokerages[Math.floor(random() * flBrokerages.length)].name.split(' ')[0])}&per_page=25` }) },
      targets: { p95: 30, p99: 60 },
    },
    { scenario: { name: 'supervisors', next: () => ({ path: `${path1(agent())}/supervisors` }) }, graphRead: true, targets: { p99: 10 } },
    { scenario: { name: 'affiliations as_of', next: () => ({ path: `${path1(agent())}/affiliations?as_of=2024-06-30` }) }, targets: { p99: 10 } },
    { scenario: { name: 'hierarchy', next: () => { const k = agent(); return { path: `/api/v1/license-credentials/${credentialId(k.state, k.license_number)}/hierarchy` }; } }, graphRead: true, targets: { p99: 10 } },
    { scenario: { name: 'affiliates of the largest broker, page 1', next: () => ({ path: `${largest}?per_page=25&page=1` }) }, graphRead: true, targets: { p99: 30 } },
    { scenario: { name: 'affiliates of the largest broker, last page', next: () => ({ path: `${largest}?per_page=25&page=LAST` }) }, graphRead: true, targets: { p99: 30 } },
    // Issue 59: a year of the roster month by month (joiners and leavers named, where each came from or went), a report
    // paced at a tenth of the rate as the searches and batches are; gated at 3x the page's p99.
    { scenario: { name: 'roster history of the largest broker, a year (latency at a tenth of the rate)', rateFactor: 0.1, next: () => ({ path: `/api/v1/licensees/FL/CQ0000001/roster-history?from=${YEAR_BEFORE_SNAPSHOT}&to=${SNAPSHOT_MONTH_END}` }) }, graphRead: true, targets: { p99: 90 } },
  ];
}

/**
 * A list of sizes: each size run as a bench of its own (this script, one size), then one results
 * file with their sections and, per engine, each scenario's p50 at each size against the smallest.
 */
async function sizes() {
  const own = path.resolve(values.results!);
  const args = process.argv.slice(2).filter((a, i, all) => !['--credentials', '--results', '--medians-json'].includes(a) && !['--credentials', '--results', '--medians-json'].includes(all[i - 1]) && !/^--(credentials|results|medians-json)=/.test(a));
  const runs: { size: number; section: string; medians: Record<string, Record<string, { p50: number }>> }[] = [];
  for (const size of SIZES) {
    const results = `${own.replace(/\.md$/, '')}-${size}.md`;
    const json = `${results}.json`;
    console.log(`bench:national: ${size.toLocaleString('en-US')} credentials (${runs.length + 1} of ${SIZES.length})`);
    execFileSync(process.execPath, [...process.execArgv, process.argv[1], ...args, '--credentials', String(size), '--results', results, '--medians-json', json], { stdio: 'inherit' });
    runs.push({ size, section: fs.readFileSync(results, 'utf8').replace(/^# National benchmark\n\n/, ''), medians: JSON.parse(fs.readFileSync(json, 'utf8')) });
    fs.rmSync(results);
    fs.rmSync(json);
  }
  const [base, ...rest] = runs;
  const lines = [
    '## A page against the size of the data',
    '',
    `p50 in ms at each size (medians of its runs, latency at that run's own rate) and its ratio to ${base.size.toLocaleString('en-US')} credentials; goal: a page at most 1.5 times the smallest size's.`,
    '',
    `| engine | scenario | ${runs.map((r) => `p50 at ${r.size.toLocaleString('en-US')}`).join(' | ')} | ${rest.map((r) => `${r.size.toLocaleString('en-US')}/${base.size.toLocaleString('en-US')}`).join(' | ')} |`,
    `|---|---|${runs.map(() => '---|').join('')}${rest.map(() => '---|').join('')}`,
  ];
  for (const [engine, scenarios] of Object.entries(base.medians)) {
    for (const [name, { p50 }] of Object.entries(scenarios)) {
      const at = runs.map((r) => r.medians[engine]?.[name]?.p50 ?? Number.NaN);
      lines.push(`| ${engine} | ${name} | ${at.map((x) => x.toFixed(1)).join(' | ')} | ${at.slice(1).map((x) => (x / p50).toFixed(2)).join(' | ')} |`);
    }
  }
  const text = `# National benchmark\n\n${runs.map((r) => `# ${r.size.toLocaleString('en-US')} credentials\n\n${r.section}`).join('\n')}\n${lines.join('\n')}\n`;
  fs.writeFileSync(own, text);
  console.log(text);
  console.log(`written to ${path.relative(process.cwd(), own)}`);
}

async function main() {
  if (SIZES.length > 1) return sizes();
  const ladybug = await prepare(STORES);
  if (values['prepare-only']) {
    if (values.engine === 'neo4j') await (await prepareNeo4j(STORES, ladybug.dataset)).neo4j.stop();
    return;
  }
  const keys = await sampleKeys(ladybug.dataset);
  const sections: string[] = [];
  // Written after each engine: a later failure keeps what was measured.
  const medians: Record<string, Record<string, { p50: number }>> = {};
  const write = () => {
    const text = `# National benchmark\n\n${sections.join('\n')}`;
    if (values['medians-json']) fs.writeFileSync(values['medians-json'], JSON.stringify(medians));
    fs.mkdirSync(path.dirname(RESULTS.pathname), { recursive: true });
    fs.writeFileSync(RESULTS, text);
    console.log(text);
    console.log(`written to ${path.relative(process.cwd(), RESULTS.pathname)}`);
  };
  const embedded = await measure('ladybug', ladybug, keys);
  medians.ladybug = Object.fromEntries([...embedded.rows].map(([name, r]) => [name, { p50: r.p50 }]));
  sections.push(embedded.section);
  write();
  if (values.engine === 'neo4j') {
    const prepared = await prepareNeo4j(STORES, ladybug.dataset);
    try {
      const driver = neo4jDriver.driver(prepared.neo4j.uri, neo4jDriver.auth.basic(prepared.neo4j.user, prepared.neo4j.password));
      const [warmed, memory] = await (async () => {
        try {
          return [await warmNeo4j(driver), await neo4jMemory(driver)];
        } finally {
          await driver.close();
        }
      })();
      const served = await measure('neo4j', prepared, keys, { NEO4J_URI: prepared.neo4j.uri, NEO4J_PASSWORD, NEO4J_POOL_SIZE: GRAPH_POOL }, embedded.rate, [warmed, memory]);
      medians.neo4j = Object.fromEntries([...served.rows].map(([name, r]) => [name, { p50: r.p50 }]));
      sections.push(served.section, gates(embedded, served));
      write();
    } finally {
      await prepared.neo4j.stop();
    }
  }
}

/**
 * Brings the whole Neo4j store into memory, as LadybugDB's graph file is read into the OS page
 * cache before its server starts: every store and index file read once (the TEXT indexes are
 * Lucene files outside Neo4j's page cache), then every node's and relationship's properties and
 * the range indexes read through Cypher, which fills the page cache (Community has no warm-up
 * of its own). Returns a line for the results.
 */
async function warmNeo4j(driver: Driver): Promise<string> {
  const started = Date.now();
  const files = execFileSync('find', [path.join(NEO4J_DIR, 'neo4j', 'data', 'databases'), '-type', 'f'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  for (const file of files) for await (const _ of fs.createReadStream(file, { highWaterMark: 1 << 22 })) void _;
  for (const query of [
      'MATCH (n) RETURN sum(size(keys(properties(n)))) AS touched',
      'MATCH ()-[r]->() RETURN sum(size(keys(properties(r)))) AS touched',
      // Index scans over the range indexes the reads seek in.
      'MATCH (c:LicenseCredential) WHERE c.id IS NOT NULL RETURN count(*) AS touched',
      'MATCH (c:LicenseCredential) WHERE c.state IS NOT NULL AND c.license_number IS NOT NULL RETURN count(*) AS touched',
      'MATCH (c:LicenseCredential) WHERE c.state IS NOT NULL AND c.sort_key IS NOT NULL RETURN count(*) AS touched',
  ]) await driver.executeQuery(query, {}, { routing: 'READ' });
  return `- Neo4j's store warmed before the server started (store and index files read, then every node's and relationship's properties and the range indexes read by Cypher): ${((Date.now() - started) / 1000).toFixed(1)} s`;
}

/** Neo4j's memory apart: configured heap and page cache, heap in use, page cache filled, and the store on disk. */
async function neo4jMemory(driver: Driver): Promise<string> {
  const setting = (name: string) =>
    driver.executeQuery('SHOW SETTINGS YIELD name, value WHERE name = $name RETURN value', { name }).then((r) => String(r.records[0]?.get('value')), () => '-');
  // A figure Neo4j does not give leaves a dash rather than the results unwritten.
  const heap = await driver
    .executeQuery("CALL dbms.queryJmx('java.lang:type=Memory') YIELD attributes RETURN attributes.HeapMemoryUsage.value.properties.used AS used")
    .then((r) => Number(r.records[0]?.get('used')))
    .catch(() => Number.NaN);
  const mb = (dir: string) => (fs.existsSync(dir) ? du(dir) : 0);
  const db = path.join(NEO4J_DIR, 'neo4j', 'data', 'databases', 'neo4j');
  const indexes = mb(path.join(db, 'schema'));
  return (
    `- Neo4j's memory: heap ${await setting('server.memory.heap.max_size')} (${Number.isNaN(heap) ? '-' : (heap / 2 ** 20).toFixed(0)} MB in use after the warm-up), page cache ${await setting('server.memory.pagecache.size')}; ` +
    `store on disk ${(mb(db) - indexes).toLocaleString('en-US')} MB of records and ${indexes.toLocaleString('en-US')} MB of indexes, transaction logs ${mb(path.join(NEO4J_DIR, 'neo4j', 'data', 'transactions')).toLocaleString('en-US')} MB`
  );
}

/** Stops a server and waits for it to exit. */
async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Issue 36: what the verification log costs. The named scenarios' saturation with recording on and off
 * (RECORD_VERIFICATIONS), servers restarted in turn and the order alternating run by run, and the
 * side store's size per million records. Stops `server` (the main runs' server) first.
 */
async function recordingCost(
  engine: string,
  named: Scenario[],
  { base, headers, server, start, dataDir }: { base: string; headers: Record<string, string>; server: ChildProcess; start: (extra?: Record<string, string>) => Promise<{ child: ChildProcess }>; dataDir: string },
): Promise<string[]> {
  if (!named.length) return [];
  await stop(server);
  const rps: Record<string, { on: number[]; off: number[] }> = Object.fromEntries(named.map((s) => [s.name, { on: [], off: [] }]));
  for (let run = 1; run <= RUNS; run++) {
    for (const mode of run % 2 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
      const { child } = await start({ RECORD_VERIFICATIONS: mode === 'on' ? 'true' : 'false' });
      try {
        for (const s of named) {
          console.log(`${engine}: recording ${mode}, run ${run} of ${RUNS}: ${s.name}`);
          await drive(base, headers, s, null, 0);
          const r = await drive(base, headers, s, null);
          // A failing answer is fast: a throughput with failures in it measures nothing.
          if (r.bad) throw new Error(`recording ${mode}, ${s.name}: ${r.bad} answers were not 2xx`);
          rps[s.name][mode].push(r.rps);
        }
      } finally {
        await stop(child);
      }
    }
  }
  const store = await openPglite(path.join(dataDir, 'accounts.pglite'));
  const [size] = await store.query<{ n: string; bytes: string }>(
    "SELECT coalesce(sum(jsonb_array_length(items)), 0)::text AS n, pg_total_relation_size('verification_calls')::text AS bytes FROM verification_calls",
  );
  await store.close();
  const perMillion = (Number(size.bytes) / Number(size.n)) * 1e6;
  return [
    ...named.map((s) => {
      const [on, off] = [median(rps[s.name].on), median(rps[s.name].off)];
      return `- verification log, ${s.name}: saturation with recording ${on.toFixed(0)} req/s${rps[s.name].on.length > 1 ? ` (${Math.min(...rps[s.name].on).toFixed(0)}-${Math.max(...rps[s.name].on).toFixed(0)})` : ''}, without ${off.toFixed(0)} req/s; ratio ${(on / off).toFixed(2)} (goal at least 0.80): ${on / off >= 0.8 ? 'met' : 'missed'}`;
    }),
    `- verification log size in the side store (PGlite): ${Number(size.n).toLocaleString('en-US')} records in ${(Number(size.bytes) / 2 ** 20).toFixed(0)} MB with their indexes: ${(perMillion / 2 ** 20).toFixed(0)} MB per million verifications`,
  ];
}

interface Measured {
  section: string;
  /** The latency runs' rate, req/s. */
  rate: number;
  /** Per scenario: median p99 and saturation as a share of the same run's /health. */
  rows: Map<string, { p50: number; p99: number; share: number; graphRead: boolean }>;
}

/** The issue's gates: each scenario on Neo4j against LadybugDB from the same run. */
function gates(embedded: Measured, served: Measured): string {
  const lines = [
    '## Neo4j against LadybugDB, same run, same rate',
    '',
    'Gates: p99 at most 1.5 times LadybugDB\'s and saturation (as a share of each server\'s /health) at least two thirds of LadybugDB\'s; supervisors, hierarchy and affiliates at least as fast on Neo4j (p99 and saturation).',
    '',
    '| scenario | p99 LadybugDB | p99 Neo4j | Neo4j/LadybugDB | saturation share LadybugDB | Neo4j | Neo4j/LadybugDB | gate |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const [name, e] of embedded.rows) {
    const n = served.rows.get(name)!;
    const [p99Cap, shareFloor] = e.graphRead ? [1, 1] : [1.5, 2 / 3];
    const p99Ratio = n.p99 / e.p99;
    const shareRatio = n.share / e.share;
    const met = p99Ratio <= p99Cap && shareRatio >= shareFloor;
    lines.push(
      `| ${name} | ${e.p99.toFixed(1)} | ${Number.isNaN(n.p99) ? '-' : n.p99.toFixed(1)} | ${Number.isNaN(p99Ratio) ? '-' : p99Ratio.toFixed(2)} | ${e.share.toFixed(3)} | ${n.share.toFixed(3)} | ${shareRatio.toFixed(2)} | ` +
        `p99 <= ${p99Cap}x, saturation >= ${e.graphRead ? '1' : '2/3'}x: ${met ? 'met' : 'missed'} |`,
    );
  }
  // Issue 33: a big broker's pages against Neo4j's own uniform verifies.
  const verify = served.rows.get('verify, uniform keys');
  if (verify) {
    lines.push('', 'The largest broker\'s pages on Neo4j against its uniform verifies (goal: p99 at most 3x, saturation at least 1/2):', '');
    for (const [name, n] of served.rows) {
      if (!name.startsWith('affiliates')) continue;
      const [p99Ratio, shareRatio] = [n.p99 / verify.p99, n.share / verify.share];
      lines.push(`- ${name}: p99 ${p99Ratio.toFixed(2)}x, saturation ${shareRatio.toFixed(2)}x: ${p99Ratio <= 3 && shareRatio >= 0.5 ? 'met' : 'missed'}`);
    }
  }
  // Issue 59: a year of the largest broker's roster history against the same engine's page 1.
  const history = 'roster history of the largest broker, a year (latency at a tenth of the rate)';
  const page = 'affiliates of the largest broker, page 1';
  if (embedded.rows.has(history) && embedded.rows.has(page)) {
    lines.push('', 'Roster history of the largest broker for a year against the same engine\'s affiliates page 1 (goal: p99 at most 3x):', '');
    for (const [engine, m] of [['LadybugDB', embedded], ['Neo4j', served]] as const) {
      const ratio = m.rows.get(history)!.p99 / m.rows.get(page)!.p99;
      lines.push(`- ${engine}: p99 ${m.rows.get(history)!.p99.toFixed(1)} ms against ${m.rows.get(page)!.p99.toFixed(1)} ms, ${ratio.toFixed(2)}x: ${ratio <= 3 ? 'met' : 'missed'}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Starts the server on one engine's loaded graph, runs every scenario, and returns its section of
 * the results. `rate`: the latency runs' rate; measured from this server's /health when absent.
 */
async function measure(engine: 'ladybug' | 'neo4j', { loadSeconds, reused, storeMb, where }: Prepared, keys: Awaited<ReturnType<typeof sampleKeys>>, engineEnv: Record<string, string> = {}, rate?: number, notes: string[] = []): Promise<Measured> {
  const dataDir = engine === 'ladybug' ? DATA_DIR : path.join(NEO4J_DIR, 'server');
  const key = await apiKey(dataDir);
  // Every run starts with the graph file in the OS page cache, as on a server up for a while: read
  // cold from disk here, a key read took ~4 ms instead of ~1.
  if (engine === 'ladybug') for await (const _ of fs.createReadStream(path.join(DATA_DIR, 'graph.lbug'), { highWaterMark: 1 << 22 })) void _;
  const [port, barePort] = [await freePort(), await freePort()];
  // The bench's enterprise account is given a rate far above what it sends (its load is the bench's, not a client's).
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_FORMAT: 'json', LOG_LEVEL: 'info', DEMO_DATA: 'false', GRAPH_BUFFER_POOL_MB: values['buffer-pool-mb'], GRAPH_CONNECTIONS: GRAPH_POOL, RATE_LIMITS: 'enterprise=100000:100000', ...engineEnv };
  /** Starts the server; seconds to its first /health and to ready (every store answers, the search index built or read). */
  const start = async (extra: Record<string, string> = {}) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env: { ...env, ...extra }, stdio: ['ignore', 'ignore', 'inherit'] });
    const health = await waitFor(`http://127.0.0.1:${port}/health`, child);
    // A first build past the goal is a figure to report, not a failed run: ten minutes.
    const ready = health + (await waitFor(`http://127.0.0.1:${port}/api/v1/readiness`, child, 600_000, { authorization: `Bearer ${key}` }));
    // Where a first build's time went: reading the rows (an export, or the load's), then indexing them.
    const build = ((await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as { search_index?: { last_build?: { ms?: number; read_ms?: number; index_ms?: number } } }).search_index?.last_build;
    return { child, health, ready, build };
  };
  const built = (s: Awaited<ReturnType<typeof start>>) =>
    s.build?.ms === undefined ? '' : ` (index built in ${(s.build.ms / 1000).toFixed(2)} s: rows read ${((s.build.read_ms ?? 0) / 1000).toFixed(2)} s, indexed ${((s.build.index_ms ?? 0) / 1000).toFixed(2)} s)`;
  // The first start builds the search index; a restart after a clean stop reads the kept one. On
  // Neo4j the first build reads the rows its load left, and a first start without them (another
  // machine's process) exports them from Neo4j: measured first.
  const snapshot = path.join(dataDir, 'search-index.snapshot');
  fs.rmSync(snapshot, { force: true });
  let exporting: Awaited<ReturnType<typeof start>> | undefined;
  if (engine === 'neo4j' && fs.existsSync(path.join(NEO4J_DIR, 'search-seed'))) {
    exporting = await start();
    await stop(exporting.child);
    fs.rmSync(snapshot, { force: true });
    searchSeed(STORES, dataDir);
  }
  const first = await start();
  const firstMemory = rss(first.child.pid!);
  await stop(first.child);
  // The measurements run on the restarted server, as a server runs after its first start.
  const again = await start();
  const server = again.child;
  const bare = spawn(process.execPath, [new URL('./bare-express.mjs', import.meta.url).pathname], { env: { ...process.env, PORT: String(barePort) }, stdio: 'inherit' });
  try {
    await waitFor(`http://127.0.0.1:${barePort}/hello`, bare);
    const base = `http://127.0.0.1:${port}`;
    const headers = { authorization: `Bearer ${key}` };
    // Pages of the largest broker: the last one from its total.
    const page1 = (await (await fetch(`${base}/api/v1/licensees/FL/CQ0000001/affiliates?per_page=25`, { headers })).json()) as { meta: { total: number } };
    const lastPage = Math.max(1, Math.ceil(page1.meta.total / 25));
    const rng = xoroshiro128plus(SEED);
    const only = values.only?.split(',').filter(Boolean);
    const list = scenarios(keys, () => uniformFloat64(rng)).filter((x) => !only || only.some((o) => x.scenario.name.includes(o))).map((x) => ({
      ...x,
      scenario: { ...x.scenario, next: () => { const n = x.scenario.next(); return { ...n, path: n.path.replace('page=LAST', `page=${lastPage}`) }; } },
    }));
    const results = new Map<string, { p50: number[]; p95: number[]; p99: number[]; rps: number[]; share: number[]; bad: number; cached: number[] }>();
    // Latency runs give the percentiles, saturation runs the throughput.
    const record = (name: string, r: Awaited<ReturnType<typeof drive>>, saturation: boolean) => {
      const e = results.get(name) ?? { p50: [], p95: [], p99: [], rps: [], share: [], bad: 0, cached: [] };
      if (saturation) e.rps.push(r.rps);
      else e.p50.push(r.p50), e.p95.push(r.p95), e.p99.push(r.p99);
      e.bad += r.bad;
      results.set(name, e);
    };
    if (WARM_UP_RUN_SECONDS > 0) {
      console.log(`${engine}: warming up, every scenario at saturation for ${WARM_UP_RUN_SECONDS} s, not measured`);
      for (const { scenario } of list) await drive(base, headers, scenario, null, 0, WARM_UP_RUN_SECONDS);
    }
    for (let run = 1; run <= RUNS; run++) {
      for (const [name, url, h] of [['ceiling: bare Express 5 JSON route', `http://127.0.0.1:${barePort}`, {}], ['ceiling: the server\'s /health', base, {}]] as const) {
        const s: Scenario = { name, next: () => ({ path: name.includes('bare') ? '/hello' : '/health' }) };
        record(name, await drive(url, h, s, null), true);
      }
      const health = results.get("ceiling: the server's /health")!.rps.at(-1)!;
      // The first engine's first /health saturation sets the rate for the whole bench.
      rate ??= Math.max(1, Math.round(HEALTH_SHARE * health));
      for (const [n, { scenario }] of list.entries()) {
        console.log(`${engine}: run ${run} of ${RUNS}, scenario ${n + 1} of ${list.length}: ${scenario.name}`);
        const cached = engine === 'ladybug' ? cachedShare(path.join(DATA_DIR, 'graph.lbug')) : Number.NaN;
        const at = rate * (scenario.rateFactor ?? 1);
        record(scenario.name, await drive(base, headers, scenario, at, rate * SECONDS), false);
        results.get(scenario.name)!.cached.push(cached);
        record(scenario.name, await drive(base, headers, scenario, null), true);
        results.get(scenario.name)!.share.push(results.get(scenario.name)!.rps.at(-1)! / health);
      }
      console.log(`${engine}: run ${run} of ${RUNS} done`);
    }
    // Twice what uniform verifies saturate at, open loop: the excess must be shed, not queued.
    const overloadLines: string[] = [];
    if (!only || only.includes('overload')) {
      const uniform = list.find((x) => x.scenario.name === 'verify, uniform keys')?.scenario ?? scenarios(keys, () => uniformFloat64(rng))[0].scenario;
      const saturation = median(results.get(uniform.name)?.rps ?? []) || (await drive(base, headers, uniform, null)).rps;
      const o = await overload(base, headers, uniform, 2 * saturation, 10);
      overloadLines.push(
        `- overload: uniform verifies open loop at ${(2 * saturation).toFixed(0)} req/s (twice their saturation) for 10 s: ${o.sent.toLocaleString('en-US')} answers, ` +
          `${((100 * o.shed) / o.sent).toFixed(1)}% shed with 503, ${o.other} other non-2xx; served p99 ${o.servedP99.toFixed(1)} ms, p99.9 of all answers ${o.allP999.toFixed(1)} ms (goal 2,000); ` +
          `normal answers again ${Number.isNaN(o.recovered) ? 'not within 60 s' : `${o.recovered.toFixed(0)} ms`} after the last request was sent (goal 1,000)`,
      );
      console.log(`${engine}: ${overloadLines[0]}`);
    }
    const rosterLines =
      !only || only.includes('roster')
        ? await rosterCost({
            engine,
            base,
            headers,
            csv: rosterCsv(keys.wide, () => uniformFloat64(rng)),
            verify: scenarios(keys, () => uniformFloat64(rng))[0].scenario,
            rate: rate!,
            seconds: SECONDS,
            runs: RUNS,
            rss: () => rss(server.pid!),
          })
        : [];
    const memory = rss(server.pid!);
    const operatingLines =
      !only || only.includes('operating') || only.includes('fairshare')
        ? await (async () => {
            await stop(server);
            // The flooding account is made while no server holds the side store.
            const flooder = { authorization: `Bearer ${await apiKey(dataDir, undefined, 'growth')}` };
            return operatingCost({
              engine,
              base,
              headers,
              flooder,
              verify: scenarios(keys, () => uniformFloat64(rng))[0].scenario,
              rate: rate!,
              runs: RUNS,
              seconds: SECONDS,
              metricsPort: await freePort(),
              start,
              stop,
              saturate: (b, h, sc) => drive(b, h, sc, null),
              // `--only fairshare`: the fair share without the cost runs.
              cost: !only || only.includes('operating'),
            });
          })()
        : [];
    const recordingLines = await recordingCost(engine, list.map((x) => x.scenario).filter((x) => x.name.includes('with names') || x.name.includes('with a name')), { base, headers, server, start, dataDir });
    const bareRps = median(results.get('ceiling: bare Express 5 JSON route')!.rps);
    const healthRps = median(results.get("ceiling: the server's /health")!.rps);
    const ms = (xs: number[]) => (Number.isNaN(median(xs)) ? '-' : median(xs).toFixed(1));
    const range = (xs: number[], digits = 1) => (xs.length > 1 ? ` (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})` : '');
    const lines = [
      engine === 'ladybug' ? '## LadybugDB (embedded, the default)' : `## Neo4j 5.26.30 (the local launcher, ${path.relative(process.cwd(), process.env.NEO4J_CONF ?? '')}, over Bolt)`,
      '',
      `${CREDENTIALS.toLocaleString('en-US')} generated credentials (seed ${SEED}), ${engine === 'ladybug' ? `LadybugDB on disk, buffer pool ${values['buffer-pool-mb']} MB` : 'Neo4j in its own JVM on this machine'}; ` +
        `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB, Node ${process.version}; ${new Date().toISOString().slice(0, 10)}.`,
      `${RUNS} runs of ${SECONDS} s per measurement: medians, ranges in brackets. ${WARM_UP_RUN_SECONDS > 0 ? `Before the first run, every scenario at saturation for ${WARM_UP_RUN_SECONDS} s, not measured (the server warmed as a long-running one is: V8's and, on Neo4j, the JVM's compilers). ` : ''}Latency at a fixed ${rate} req/s, ${HEALTH_SHARE * 100}% of the first /health saturation of this bench (LadybugDB's first run), the same for both engines (evenly paced, timed from when each request was due, or was sent if a timer fired early; ${rate! * SECONDS} requests per latency run, whatever its rate, after ${WARM_UP_SECONDS} s of the same scenario not measured); saturation with ${CONNECTIONS} autocannon connections, reported also as a share of the same run's /health. ` +
        `The two cores are shared, unpinned, by the load generator (this process), the server (one Node process; ${GRAPH_POOL} graph queries at once: LadybugDB connections, or the Neo4j driver's pool) and, on Neo4j, its JVM (Bolt workers serve those ${GRAPH_POOL} connections). Uniform verifies draw from every 5th credential (${keys.wide.length.toLocaleString('en-US')} keys, most never read before), Zipf keys and the other scenarios from every 50th. ` +
        (engine === 'ladybug' ? 'The graph file is read into the OS page cache before the server starts; the last column gives how much of it was still there when each latency run began.' : 'The store is warmed before the server starts (below).'),
      '',
      engine === 'ladybug'
        ? `- bulk load of the dataset: ${loadSeconds.toFixed(1)} s${reused ? ' (measured when the graph was built)' : ''}; target 120 s; store ${storeMb.toLocaleString('en-US')} MB`
        : `- load of the dataset with Neo4j's offline importer (the bulk path's files, neo4j-admin database import full, then the schema and the statements no file holds over Bolt): ${loadSeconds.toFixed(1)} s${reused ? ' (measured when the graph was built)' : ''}; goal 300 s; store ${storeMb.toLocaleString('en-US')} MB; where the time went: ${(where ?? []).join('; ')}`,
      `- server start-up on the loaded graph, target 5 s: first start (search index built${exporting ? ' from the rows the load left' : ''}) /health ${first.health.toFixed(2)} s, ready ${first.ready.toFixed(2)} s${built(first)}; ` +
        (exporting ? `first start exporting the rows from Neo4j instead (no rows from the load) ready ${exporting.ready.toFixed(2)} s${built(exporting)}; ` : '') +
        `restart after a clean stop (index read from disk) /health ${again.health.toFixed(2)} s, ready ${again.ready.toFixed(2)} s`,
      `- API server RSS, goal 1,024 MB: after the runs ${memory.now.toFixed(0)} MB (peak ${memory.peak.toFixed(0)} MB); first start, once the search index was built, ${firstMemory.now.toFixed(0)} MB (peak ${firstMemory.peak.toFixed(0)} MB, while building it)`,
      `- ceilings: bare Express 5 JSON route ${bareRps.toFixed(0)} req/s, the server's /health ${healthRps.toFixed(0)} req/s`,
      ...notes,
      ...overloadLines,
      ...rosterLines,
      ...recordingLines,
      ...operatingLines,
      '',
      '| endpoint | p50 ms | p95 ms | p99 ms | target | saturation req/s | vs /health | vs bare Express | non-2xx, errors, timeouts | graph file in page cache at its start |',
      '|---|---|---|---|---|---|---|---|---|---|',
    ];
    for (const { scenario, targets } of list) {
      const r = results.get(scenario.name)!;
      const p99 = median(r.p99);
      const p95 = median(r.p95);
      const answered = !Number.isNaN(p99);
      const verdict = targets
        ? `p99 <= ${targets.p99}${targets.p95 ? `, p95 <= ${targets.p95}` : ''}: ${!answered ? `missed (no answer within ${SECONDS} s)` : p99 <= targets.p99 && (!targets.p95 || p95 <= targets.p95) ? 'met' : `missed (p99 ${(p99 / targets.p99).toFixed(1)}x)`}`
        : '';
      const rps = median(r.rps);
      lines.push(
        `| ${scenario.name} | ${ms(r.p50)}${range(r.p50)} | ${ms(r.p95)}${range(r.p95)} | ${ms(r.p99)}${range(r.p99)} | ${verdict} | ${rps.toFixed(0)}${range(r.rps, 0)} | ${median(r.share).toFixed(3)} | ${(rps / bareRps).toFixed(2)} | ${r.bad} | ${Number.isNaN(median(r.cached)) ? '-' : `${(100 * median(r.cached)).toFixed(0)}%${range(r.cached.map((c) => 100 * c), 0)}`} |`,
      );
    }
    const rows = new Map(list.map(({ scenario, graphRead }) => [scenario.name, { p50: median(results.get(scenario.name)!.p50), p99: median(results.get(scenario.name)!.p99), share: median(results.get(scenario.name)!.share), graphRead: !!graphRead }]));
    return { section: `${lines.join('\n')}\n`, rate: rate!, rows };
  } finally {
    server.kill('SIGTERM');
    bare.kill('SIGTERM');
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
