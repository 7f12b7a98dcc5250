// What API keys and metering cost per request: the same endpoints served by the same app with
// and without them, driven by autocannon over HTTP on loopback. The headline figure uses the
// metered change-feed stub, which touches no graph, so the difference is the cost of access
// control itself rather than noise from a 5-10 ms graph lookup; verify is measured too.
// Response times come from autocannon's per-response hrtime (its histogram rounds to whole ms).
// Usage: npm run bench:auth [-- --seconds 3 --rounds 5 --connections 1]
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { benchSchema } from './pg-schema.js';
import { createApp } from '../src/app.js';
import { compose, noMail } from '../src/compose/index.js';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/store/open-store.js';
import { DEFAULT_RATE_LIMITS } from '../src/domain/plans.js';
import { importFolder } from '../src/ingest/load.js';
import { DEMO_SEEDS } from '../src/start-up.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '3' }, rounds: { type: 'string', default: '5' }, connections: { type: 'string', default: '1' } },
});
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = Number(values.connections);
const PATHS = {
  'metered stub (GET /api/v1/licensees/changes)': '/api/v1/licensees/changes',
  'verify (GET /api/v1/licensees/verify)': '/api/v1/licensees/verify?state=TX&license_number=406526-SA',
};
const TARGET_MS = 0.2;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (ms: number) => `${ms.toFixed(3)} ms`;

async function drive(url: string, path: string, headers: Record<string, string>) {
  const samples: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url: `${url}${path}`, headers, connections: CONNECTIONS, duration: SECONDS }, (err, res) =>
      err ? reject(err) : resolve(res),
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status === 200) samples.push(ms);
    });
  });
  if (result.non2xx) throw new Error(`${result.non2xx} responses were not 2xx`);
  return { median: median(samples), requests: samples.length, rps: result.requests.average };
}

async function main() {
  // On PostgreSQL the bench works in a schema of its own and drops it at the end; else PGlite in memory.
  const url = process.env.BENCH_DATABASE_URL;
  const schema = url ? await benchSchema(url, `lvs_bench_${process.pid}`) : undefined;
  // No request rate per plan on the main stacks (the rated one below counts it), and no admission limit.
  const config = { ...loadConfig({}), graphPath: ':memory:', GRAPH_BUFFER_POOL_MB: 512, GRAPH_CONNECTIONS: 4, GRAPH_QUERY_TIMEOUT_MS: 30000, DATABASE_URL: schema?.url, DATABASE_POOL_SIZE: 10, RATE_LIMITS: 'off' as const, MAX_CONCURRENT_REQUESTS: 10_000 };
  const root = compose(config, { mail: noMail('http://localhost'), store: openStore({ DATABASE_URL: schema?.url, DATABASE_POOL_SIZE: 10 }) });
  await importFolder(await root.imports(), DEMO_SEEDS);
  const store = await root.store();
  const side = await root.side();
  const paid = (await side.accounts.createAccount({ email: `bench-paid-${Date.now()}@example.com`, plan: 'enterprise' })).key.key;
  const freeAccount = await side.accounts.createAccount({ email: `bench-free-${Date.now()}@example.com`, plan: 'free' });
  const free = freeAccount.key.key;
  // A free quota of 25 would be spent in a blink: start its counter far below zero so every call
  // still takes the quota atomically in the store.
  const period = new Date().toISOString().slice(0, 7);
  const resetFree = () =>
    store.query(
      `INSERT INTO usage_totals (account_id, period, used) VALUES ($1, $2, -100000000)
       ON CONFLICT (account_id, period) DO UPDATE SET used = -100000000`,
      [freeAccount.account.id, period],
    );
  await resetFree();
  const deps = await root.services();
  // Logging is part of both stacks, so it stays in and cancels out.
  const listen = (app: ReturnType<typeof createApp>) =>
    new Promise<{ url: string; close: () => void }>((resolve) => {
      const server = app.listen(0, '127.0.0.1', () =>
        resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }),
      );
    });
  // The same with each plan's request rate counted (PostgreSQL: one upsert per call; PGlite: in memory), far above the bench's calls.
  const ratedSide = await compose({ ...config, RATE_LIMITS: { ...DEFAULT_RATE_LIMITS, enterprise: { perSecond: 1_000_000, burst: 1_000_000 } } }, { store, clock: side.clock }).side();
  const rated = await listen(createApp({ ...deps, fairShare: ratedSide.fairShare!.take }));
  const guarded = await listen(createApp(deps));
  const open = await listen(createApp(deps, { accessControl: false }));
  const flusher = setInterval(() => side.meter.flush().catch(() => undefined), 1000);

  console.log(`auth + metering overhead: ${CONNECTIONS} connection(s), ${SECONDS} s per run, ${ROUNDS} rounds, store ${store.kind}`);
  const range = (xs: number[]) => `${fmt(Math.min(...xs))} .. ${fmt(Math.max(...xs))}`;
  let headline = NaN;
  for (const [label, path] of Object.entries(PATHS)) {
    console.log(`\n${label}`);
    await drive(open.url, path, {}); // warm-up
    await drive(guarded.url, path, { authorization: `Bearer ${paid}` });
    const rows: { without: number; paid: number; freePlan: number; rate: number }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const without = await drive(open.url, path, {});
      const withPaid = await drive(guarded.url, path, { authorization: `Bearer ${paid}` });
      await resetFree();
      const withFree = await drive(guarded.url, path, { authorization: `Bearer ${free}` });
      const withRate = await drive(rated.url, path, { authorization: `Bearer ${paid}` });
      rows.push({ without: without.median, paid: withPaid.median, freePlan: withFree.median, rate: withRate.median });
      console.log(
        `  round ${round}: median without ${fmt(without.median)} (${Math.round(without.rps)} req/s), ` +
          `paid key ${fmt(withPaid.median)} (${Math.round(withPaid.rps)} req/s), free key ${fmt(withFree.median)} (${Math.round(withFree.rps)} req/s), ` +
          `paid key with its rate counted ${fmt(withRate.median)} (${Math.round(withRate.rps)} req/s)`,
      );
    }
    const paidCost = median(rows.map((r) => r.paid - r.without));
    const freeCost = median(rows.map((r) => r.freePlan - r.without));
    console.log(`  median added per request, paid plan (in-memory metering): ${fmt(paidCost)} (range ${range(rows.map((r) => r.paid - r.without))}), ratio ${(median(rows.map((r) => r.paid)) / median(rows.map((r) => r.without))).toFixed(3)}`);
    console.log(`  median added per request, free plan (quota leased from the store): ${fmt(freeCost)} (range ${range(rows.map((r) => r.freePlan - r.without))})`);
    console.log(`  median added by counting the request rate (${store.kind === 'postgres' ? 'an upsert in PostgreSQL' : 'in memory'}): ${fmt(median(rows.map((r) => r.rate - r.paid)))} (range ${range(rows.map((r) => r.rate - r.paid))})`);
    if (Number.isNaN(headline)) headline = Math.max(paidCost, freeCost);
  }
  console.log(`\n${headline <= TARGET_MS ? `target met: ${fmt(headline)} <= ${TARGET_MS} ms` : `target missed by ${fmt(headline - TARGET_MS)} (target ${TARGET_MS} ms)`} (the larger of the paid and free plans, metered stub)`);
  clearInterval(flusher);
  guarded.close();
  rated.close();
  open.close();
  await side.meter.flush();
  await root.close();
  await schema?.drop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
