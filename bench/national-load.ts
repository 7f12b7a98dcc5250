// The national dataset loaded through the canonical import's bulk path: generates the
// deterministic set (or reuses it when its stats file says it has the asked size and seed), loads
// it into a fresh on-disk LadybugDB graph, and prints the load time, CPU time and peak RSS.
// Usage: npm run bench:national-load [-- --credentials 3000000 --dir data/bench-national --seed N]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { importsOf, openGraph } from '../src/compose/index.js';
import { loadConfig } from '../src/config.js';
import { loadQueryFiles } from '../src/graph/query-files.js';
import { importFolder } from '../src/ingest/load.js';
import { isLadybug, type LadybugEngine } from '../src/graph/ladybug/engine.js';
import { ladybugAdapters } from '../src/graph/ladybug/adapters.js';
import type { QueryFiles } from '../src/graph/query-files.js';
import { ensureNational } from './national-data.js';

/**
 * The graph with its large units' statements timed by query file: where the load's time goes.
 * Statements overlap the main thread's reading, so the spans are printed beside the wall time.
 */
function timedGraph(graph: LadybugEngine, files: QueryFiles, started: () => number) {
  const names = new Map(files.names().map((n) => [files.get(n), n]));
  const nameOf = (query: string) => names.get(query) ?? query.slice(0, 40);
  const spans: { name: string; from: number; to: number }[] = [];
  const time = async <R>(name: string, run: () => Promise<R>): Promise<R> => {
    const from = started();
    try {
      return await run();
    } finally {
      spans.push({ name, from, to: started() });
    }
  };
  const writeLarge: LadybugEngine['writeLarge'] = (fn) =>
    graph.writeLarge((t) =>
      fn({
        run: (q, p) => time(`run ${nameOf(q)}`, () => t.run(q, p)),
        bulk: t.bulk,
        bulkFile: (q, file, p) => time(`copy ${nameOf(q)}`, () => t.bulkFile(q, file, p)),
        exportFile: (q, p) => time(`export ${nameOf(q)}`, () => t.exportFile(q, p)),
        checkpoint: () => time('CHECKPOINT', () => t.checkpoint()),
      }),
    );
  return { graph: { ...graph, writeLarge }, spans };
}

const { values } = parseArgs({
  options: { credentials: { type: 'string', default: '3000000' }, dir: { type: 'string', default: 'data/bench-national' }, seed: { type: 'string', default: '20261123' } },
});
const CREDENTIALS = Number(values.credentials);
const SEED = Number(values.seed);

async function main() {
  const { folder: dataset, stats, generatedIn } = await ensureNational(values.dir, { credentials: CREDENTIALS, seed: SEED });
  if (generatedIn === null) console.log(`reusing ${dataset}`);
  else console.log(`generated ${CREDENTIALS.toLocaleString('en-US')} credentials and ${stats.relationships.toLocaleString('en-US')} relationships in ${generatedIn.toFixed(1)} s: ${dataset}`);
  const graphPath = path.join(values.dir, `graph-${CREDENTIALS}-${SEED}.lbug`);
  for (const f of [graphPath, `${graphPath}.wal`]) fs.rmSync(f, { force: true });
  const files = loadQueryFiles();
  const graph = (await openGraph({ ...loadConfig({}), graphPath, GRAPH_BUFFER_POOL_MB: 2048, GRAPH_CONNECTIONS: 2, GRAPH_QUERY_TIMEOUT_MS: 3_600_000 }, files)).engine;
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 200);
  const cpu = process.cpuUsage();
  const started = Date.now();
  if (!isLadybug(graph)) throw new Error('the bulk-load bench runs on LadybugDB');
  const timed = timedGraph(graph, files, () => (Date.now() - started) / 1000);
  const summary = await importFolder(importsOf(ladybugAdapters(timed.graph, files), files), dataset);
  const elapsed = (Date.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  clearInterval(sampler);
  console.log(
    `bulk import of ${summary.credentials.toLocaleString('en-US')} credentials and ${summary.relationships.toLocaleString('en-US')} relationships ` +
      `(${summary.rejected.length} rejected) into a fresh graph: ${elapsed.toFixed(1)} s, ${((used.user + used.system) / 1e6).toFixed(0)} s of CPU ` +
      `on ${os.availableParallelism()} cores, peak RSS ${(peak / 2 ** 20).toFixed(0)} MB`,
  );
  const byName = new Map<string, { n: number; seconds: number; from: number; to: number }>();
  for (const { name, from, to } of timed.spans) {
    const s = byName.get(name) ?? { n: 0, seconds: 0, from, to };
    byName.set(name, { n: s.n + 1, seconds: s.seconds + to - from, from: Math.min(s.from, from), to: Math.max(s.to, to) });
  }
  console.log('statements of the load (seconds; they overlap the reading of the files):');
  for (const [name, s] of [...byName].sort((a, b) => a[1].from - b[1].from)) {
    console.log(`  ${name.padEnd(48)} ${String(s.n).padStart(5)}x ${s.seconds.toFixed(1).padStart(7)} s, from ${s.from.toFixed(1)} to ${s.to.toFixed(1)}`);
  }
  const target = 120;
  if (CREDENTIALS >= 3_000_000) console.log(`target: 3M credentials in under ${target} s: ${elapsed < target ? 'met' : `missed by ${(elapsed - target).toFixed(1)} s (${(elapsed / target).toFixed(2)}x)`}`);
  await graph.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
