// Webhook delivery after a weekly FL refresh: a generated FL file loaded into an on-disk LadybugDB
// graph and PGlite side store, then a next snapshot changing 5% of the licences, with an account
// following FL and one endpoint: a receiver on loopback that answers after --latency-ms and checks
// every signature. Times the refresh, and from its end until every event is delivered.
// Usage: npm run bench:webhooks [-- --rows 450000 --latency-ms 50]
import pino from 'pino';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { refresh } from '../src/ingest/refresh/refresh.js';
import { FL_DBPR } from '../src/ingest/sources/fl-dbpr.js';
import { flBenchStores, writeFlFile } from './fl-file.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '450000' }, 'latency-ms': { type: 'string', default: '50' } } });
const ROWS = Number(values.rows);
const LATENCY_MS = Number(values['latency-ms']);
const TARGET_MS = 3600_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-bench-webhooks-'));

async function receiver(secret: () => string) {
  let received = 0;
  let bad = 0;
  const ids = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        new Webhook(secret()).verify(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>);
        received++;
        ids.add(req.headers['webhook-id'] as string);
      } catch {
        bad++;
      }
      setTimeout(() => res.end('ok'), LATENCY_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, stats: () => ({ received, bad, unique: ids.size }), close: () => server.close() };
}

async function main() {
  const file1 = path.join(dir, 'RE_rgn1.csv');
  const file2 = path.join(dir, 'RE_rgn1-next.csv');
  await writeFlFile(file1, ROWS, () => false);
  // 5% changed: every twentieth licence goes inactive.
  await writeFlFile(file2, ROWS, (i) => i % 20 === 7);
  const stores = await flBenchStores(dir, undefined, { delivers: true, logger: pino({ level: 'warn' }) }, { WEBHOOK_ALLOW_PRIVATE_URLS: true });
  const side = await stores.root.side();
  const refreshes = await stores.root.refresh();
  const { store } = stores;
  const { account } = await side.accounts.createAccount({ email: 'bench@example.com', plan: 'enterprise' });
  await side.watchlist.follow(account, 'FL');
  let secret = '';
  const hook = await receiver(() => secret);
  secret = (await side.webhooks.create(account, { url: hook.url })).secret;
  side.dispatcher.start();

  const ingest = (file: string, snapshot: string) => refresh(refreshes, { files: [file], format: FL_DBPR, snapshot, rejectsDir: path.join(dir, 'rejects') });
  console.log(`webhooks after a ${ROWS.toLocaleString('en-US')}-row FL refresh, receiver latency ${LATENCY_MS} ms, ${os.cpus().length} cores`);
  const first = await ingest(file1, '2026-11-01');
  console.log(`first load                 ${(first.elapsed_ms / 1000).toFixed(1).padStart(6)} s (one state_loaded event)`);
  while (hook.stats().received < 1) await new Promise((r) => setTimeout(r, 50));

  const next = await ingest(file2, '2026-11-08');
  const published = Date.now();
  const [{ n: expected }] = await store.query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_type <> 'state_loaded'");
  console.log(`next snapshot (5% changed) ${(next.elapsed_ms / 1000).toFixed(1).padStart(6)} s  updated ${next.updated}, deliveries stored ${expected}`);
  let last = 0;
  while (hook.stats().unique < expected + 1) {
    await new Promise((r) => setTimeout(r, 200));
    if (Date.now() - last > 10_000) {
      last = Date.now();
      console.log(`  ... ${hook.stats().unique - 1} of ${expected} delivered after ${((Date.now() - published) / 1000).toFixed(0)} s`);
    }
    if (Date.now() - published > TARGET_MS) break;
  }
  const took = Date.now() - published;
  const { received, bad, unique } = hook.stats();
  // The receiver counts a request before it answers: the last attempts are recorded just after.
  const unsettled = async () => (await store.query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'succeeded'"))[0].n;
  let failed = await unsettled();
  for (let i = 0; failed > 0 && i < 50; i++) {
    await new Promise((r) => setTimeout(r, 200));
    failed = await unsettled();
  }
  console.log(
    `delivered ${unique - 1} of ${expected} events in ${(took / 1000).toFixed(1)} s after the refresh (${Math.round(((unique - 1) / took) * 1000)} events/s; ${received} requests, ${bad} bad signatures, ${failed} not succeeded)`,
  );
  console.log(`target: every event within an hour of the refresh: ${unique - 1 === expected ? `met, ${(took / TARGET_MS).toFixed(3)} of the hour` : 'missed'}`);
  await side.dispatcher.stop();
  hook.close();
  await stores.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
