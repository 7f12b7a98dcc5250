// npm run bench:outages: stops and starts the graph store (a Neo4j of its own) and the side store
// (a PostgreSQL cluster of its own) while verify calls flow through the real server, and prints
// what clients saw and how long each phase took (medians over --runs). Needs Java (the repo's
// Neo4j launcher) and PostgreSQL's server binaries.
import { parseArgs } from 'node:util';
import { poll, startDrill, type Drill, type Sample } from '../test/helpers/outage-drill.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Number(values.runs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (ms: number) => (ms / 1000).toFixed(2);

interface Figures {
  sent: number;
  served: number;
  refused503: number;
  other5xx: number;
  toFirst503: number;
  slowest503: number;
  toRecover: number;
}

async function outage(drill: Drill, keys: string[], stop: () => Promise<void> | void, start: () => Promise<void> | void): Promise<Figures> {
  const flow = drill.traffic(keys);
  await poll(async () => flow.samples.filter((s) => s.status === 200).length >= 10);
  const stoppedAt = Date.now();
  await stop();
  await poll(async () => flow.samples.some((s) => s.status === 503 && s.sentAt >= stoppedAt));
  await new Promise((r) => setTimeout(r, 3000));
  const startedAt = Date.now();
  await start();
  await poll(async () => flow.samples.some((s) => s.status === 200 && s.sentAt >= startedAt));
  const samples: Sample[] = await flow.stop();
  const refused = samples.filter((s) => s.status === 503);
  return {
    sent: samples.length,
    served: samples.filter((s) => s.status === 200).length,
    refused503: refused.length,
    other5xx: samples.filter((s) => s.status >= 500 && s.status !== 503).length + samples.filter((s) => s.status === 0).length,
    toFirst503: Math.min(...refused.map((s) => s.doneAt)) - stoppedAt,
    slowest503: Math.max(...refused.map((s) => s.doneAt - s.sentAt)),
    toRecover: Math.min(...samples.filter((s) => s.status === 200 && s.sentAt >= startedAt).map((s) => s.doneAt)) - startedAt,
  };
}

const drill = await startDrill();
const results: Record<string, Figures[]> = { neo4j: [], postgres: [] };
try {
  for (let i = 0; i < runs; i++) {
    results.neo4j.push(await outage(drill, [drill.keys.growth], () => drill.neo4j.stop(), () => drill.neo4j.start()));
    results.postgres.push(await outage(drill, [drill.keys.growth], () => drill.postgres.stop(), () => drill.postgres.start()));
  }
} finally {
  await drill.close();
}
console.log(`store outages, ${runs} runs each, medians (2 verify callers, 20 ms apart)`);
console.log('store     sent  served  503s  other 5xx  first 503 after stop (s)  slowest 503 (s)  recovered after start (s)');
for (const [store, figures] of Object.entries(results)) {
  const m = (k: keyof Figures) => median(figures.map((f) => f[k]));
  console.log(
    `${store.padEnd(9)} ${String(m('sent')).padStart(4)}  ${String(m('served')).padStart(6)}  ${String(m('refused503')).padStart(4)}  ${String(Math.max(...figures.map((f) => f.other5xx))).padStart(9)}  ${seconds(m('toFirst503')).padStart(24)}  ${seconds(m('slowest503')).padStart(15)}  ${seconds(m('toRecover')).padStart(25)}`,
  );
}
