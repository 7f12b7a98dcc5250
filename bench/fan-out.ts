// The fan-out of a broker's status change to the accounts watching its roster (issue 59), at national
// scale without a refresh: N accounts, each with a webhook endpoint, watch every affiliate of FL's
// largest broker in the national bench's loaded store; a run suspending that broker is committed
// after a takeover's worth of public events (the feed's tables as a refresh leaves them), and its
// alerts are derived again alone, as a start's recovery derives them, --runs times. The graph is
// read, never written (the store the national bench loaded); the side store is PGlite in a folder of
// the bench's, or --database-url's PostgreSQL. Nothing is sent: deliveries are counted due.
// Usage: npm run bench:fan-out [-- --credentials 3000000 --engine ladybug,neo4j --watchers 10 --runs 3 --database-url URL]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { compose } from '../src/compose/index.js';
import { loadConfig } from '../src/config.js';
import { credentialId } from '../src/domain/identity.js';
import { localNeo4jMissing } from '../test/helpers/local-neo4j.js';
import { nationalStores, NEO4J_PASSWORD, prepare, prepareNeo4j } from './national-stores.js';
import { benchSchema } from './pg-schema.js';
import { addWatchers, deriveAgain, largestAffiliates } from './watchers.js';

const { values } = parseArgs({
  options: {
    credentials: { type: 'string', default: '3000000' },
    dir: { type: 'string', default: 'data/bench-national' },
    seed: { type: 'string', default: '20261123' },
    engine: { type: 'string', default: 'ladybug,neo4j' },
    watchers: { type: 'string', default: '10' },
    runs: { type: 'string', default: '3' },
    'database-url': { type: 'string' },
    results: { type: 'string', default: 'bench/results/fan-out.md' },
  },
});
const LARGEST = 'CQ0000001';
const GOAL_SECONDS = 60;
const WATCHERS = Number(values.watchers);
const RUNS = Number(values.runs);
const STORES = nationalStores(path.resolve(values.dir!), Number(values.credentials), Number(values.seed));
const SNAPSHOT = '2026-11-30';
const MB = 1024 * 1024;

/** The heap and page cache the local Neo4j ran with (prepareNeo4j sets NEO4J_CONF when none is given). */
function neo4jSettings(): string {
  const conf = process.env.NEO4J_CONF!;
  const text = fs.readFileSync(conf, 'utf8');
  const setting = (name: string) => text.match(new RegExp(`^server\\.memory\\.${name}=(\\S+)`, 'm'))?.[1] ?? 'default';
  return `heap ${setting('heap\\.max_size')}, page cache ${setting('pagecache\\.size')} (${path.relative(process.cwd(), conf)})`;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function bench(engine: 'ladybug' | 'neo4j', dataset: string): Promise<string[]> {
  const dataDir = path.join(STORES.root, `fan-out-${engine}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  let neo4j;
  if (engine === 'ladybug') fs.copyFileSync(path.join(STORES.ladybugDir, 'graph.lbug'), path.join(dataDir, 'graph.lbug'));
  else neo4j = (await prepareNeo4j(STORES, dataset)).neo4j;
  const side = values['database-url'] ? await benchSchema(values['database-url'], `lvs_fan_out_bench_${process.pid}`) : undefined;
  try {
    const engineEnv = neo4j ? { NEO4J_URI: neo4j.uri, NEO4J_USER: neo4j.user, NEO4J_PASSWORD } : {};
    const rootOf = () => compose(loadConfig({ DATA_DIR: dataDir, ...engineEnv, ...(side ? { DATABASE_URL: side.url } : {}) }));
    const watched = await largestAffiliates(dataset, LARGEST);
    await addWatchers(rootOf, watched, WATCHERS, 'https://hooks.example.com/fan-out-bench');
    const root = rootOf();
    let firstMs: number;
    try {
      const changes = (await root.side()).changes;
      // The public events a takeover leaves in the feed (442,188 FL rows), committed in parts.
      for (let part = 0; part < 5; part++) {
        const id = randomUUID();
        const events = Array.from({ length: 90_000 }, (_, n) => ({
          type: 'license_added', state: 'FL', license_number: `BENCH${part}-${n}`, license_credential_id: randomUUID(), old: null,
          new: { status: 'Current, Active', expiration_date: '2027-03-31', full_name: 'A BENCH LICENSEE' }, relationship: null, snapshot_date: '2026-11-23', detected_at: new Date().toISOString(), source: 'fl-dbpr',
        }));
        await changes.log.stage({ id, source: 'fl-dbpr', state: 'FL', snapshot_date: '2026-11-23' }, events as never);
        await changes.log.commit(id);
      }
      // The broker suspended: the one change of the snapshot, as bench:national-refresh's third stretch finds it.
      const run = { id: randomUUID(), source: 'fl-dbpr', state: 'FL', snapshot_date: SNAPSHOT };
      await changes.log.stage(run, [{
        type: 'status_changed', state: 'FL', license_number: LARGEST, license_credential_id: credentialId('FL', LARGEST), relationship: null,
        old: { status: 'Current, Active', status_normalized: 'active' }, new: { status: 'Suspended', status_normalized: 'suspended' }, snapshot_date: SNAPSHOT, detected_at: new Date().toISOString(), source: 'fl-dbpr',
      }] as never);
      const started = Date.now();
      await changes.log.commit(run.id);
      firstMs = Date.now() - started;
    } finally {
      await root.close();
    }
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const d = await deriveAgain(rootOf, 'fl-dbpr');
      console.log(`${engine}: derived again alone in ${(d.ms / 1000).toFixed(1)} s (${d.again.alerts} alerts, ${d.again.deliveries} deliveries due)`);
      runs.push(d);
    }
    const ms = median(runs.map((d) => d.ms));
    const last = runs[runs.length - 1];
    const memory = neo4j ? `Neo4j 5.26 from the local launcher, ${neo4jSettings()}` : 'LadybugDB on disk, the server\'s defaults (buffer pool 1,024 MB)';
    return [
      `## ${engine === 'ladybug' ? 'LadybugDB' : 'Neo4j'}`,
      '',
      `${STORES.credentials.toLocaleString('en-US')} credentials (seed ${STORES.seed}); ${memory}; ${side ? 'PostgreSQL' : 'the embedded side store (PGlite)'}; ${os.cpus().length} cores, Node ${process.version}; ${new Date().toISOString().slice(0, 10)}.`,
      `${WATCHERS} accounts, each with an endpoint, watch the ${watched.length.toLocaleString('en-US')} agents of ${LARGEST}; the run suspending it was committed and derived in ${(firstMs / 1000).toFixed(1)} s.`,
      '',
      '| runs | alerts | deliveries due | median s | min s | max s | goal |',
      '|---|---|---|---|---|---|---|',
      `| ${RUNS} | ${last.again.alerts.toLocaleString('en-US')} | ${last.again.deliveries.toLocaleString('en-US')} | ${(ms / 1000).toFixed(1)} | ${(Math.min(...runs.map((d) => d.ms)) / 1000).toFixed(1)} | ${(Math.max(...runs.map((d) => d.ms)) / 1000).toFixed(1)} | ${GOAL_SECONDS} s: ${ms <= GOAL_SECONDS * 1000 ? 'met' : 'missed'} |`,
      '',
      `- bench process peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (${(process.memoryUsage().rss / MB).toFixed(0)} MB at the end)`,
      '',
    ];
  } finally {
    await neo4j?.stop();
    await side?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const { dataset } = await prepare(STORES);
const lines = ['# A broker\'s suspension fanned out to the accounts watching its roster', ''];
for (const engine of values.engine!.split(',') as ('ladybug' | 'neo4j')[]) {
  if (engine === 'neo4j' && localNeo4jMissing()) throw new Error('no local Neo4j: node tools/neo4j/run.mjs --fetch');
  lines.push(...(await bench(engine, dataset)));
  fs.writeFileSync(values.results!, `${lines.join('\n')}\n`);
}
console.log(lines.join('\n'));
