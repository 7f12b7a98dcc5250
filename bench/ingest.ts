// Refresh throughput: a generated FL DBPR file (the layout of RE_rgn*.csv) ingested into an
// on-disk LadybugDB graph, first load then the same snapshot again and a changed next snapshot,
// each recording its change events in an on-disk PGlite side store as the server does.
// Usage: npm run bench:ingest [-- --rows 450000] [--no-changes: record no change events, to see what they cost]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { accountsDeps, refreshRepo } from '../src/deps.js';
import { refresh } from '../src/ingest/refresh.js';
import { FL_DBPR } from '../src/ingest/sources/fl-dbpr.js';
import { flBenchStores, writeFlFile } from './fl-file.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '450000' }, 'no-changes': { type: 'boolean', default: false } } });
const ROWS = Number(values.rows);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-bench-ingest-'));

async function main() {
  const file1 = path.join(dir, 'RE_rgn1.csv');
  const file2 = path.join(dir, 'RE_rgn1-next.csv');
  await writeFlFile(file1, ROWS, (i) => i % 10 === 0);
  // 20% changed: the rows that go inactive and the rows that come back.
  await writeFlFile(file2, ROWS, (i) => (i + 1) % 10 === 0);
  const stores = await flBenchStores(dir);
  const { files, config, graph, store } = stores;
  const side = accountsDeps(store);
  const events = async () => Number((await store.query<{ n: number }>('SELECT count(*)::int AS n FROM change_events WHERE seq IS NOT NULL'))[0].n);
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 200);
  const run = async (label: string, file: string, snapshot: string) => {
    peak = process.memoryUsage().rss;
    const before = await events();
    const s = await refresh(refreshRepo(graph, files, side.clock, values['no-changes'] ? undefined : side.changes.log), { files: [file], format: FL_DBPR, snapshot, rejectsDir: path.join(dir, 'rejects') });
    console.log(
      `${label.padEnd(26)} ${(s.elapsed_ms / 1000).toFixed(1).padStart(6)} s  ${Math.round(s.rows_read / (s.elapsed_ms / 1000)).toLocaleString('en-US').padStart(7)} rows/s  ` +
        `peak RSS ${(peak / 2 ** 20).toFixed(0)} MB  inserted ${s.inserted}, updated ${s.updated}, unchanged ${s.unchanged}, opened ${s.edges_opened}, closed ${s.edges_closed}, rejected ${s.rejected}, change events ${(await events()) - before}`,
    );
    return s;
  };
  console.log(`refresh of a ${ROWS.toLocaleString('en-US')}-row FL file on LadybugDB (on disk, ${config.GRAPH_BUFFER_POOL_MB} MB buffer pool), ${os.cpus().length} cores`);
  const first = await run('first load', file1, '2026-11-01');
  await run('same snapshot again', file1, '2026-11-01');
  await run('next snapshot (20% changed)', file2, '2026-11-08');
  clearInterval(sampler);
  console.log(`target: ${ROWS >= 450000 ? `450k rows under 60 s: ${first.elapsed_ms < 60000 ? 'met' : `missed by ${((first.elapsed_ms - 60000) / 1000).toFixed(1)} s`}` : 'run with --rows 450000 for the 60 s target'}`);
  await stores.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
