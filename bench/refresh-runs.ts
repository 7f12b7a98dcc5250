// What the refresh benches share: the ingest command run as its own process, as an operator runs
// it, and Neo4j's transaction memory and heap sampled while it goes.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import neo4jDriver from 'neo4j-driver';
import type { RefreshSummary } from '../src/ingest/refresh/refresh.js';
import type { LocalNeo4j } from '../test/helpers/local-neo4j.js';
import { ROOT } from '../test/helpers/processes.js';

const MB = 2 ** 20;

/**
 * Samples Neo4j's transaction memory (the largest open transaction's) and heap in use, every 250
 * ms, and when a run's generation is published (readers see it).
 */
export function neo4jMemory(n: LocalNeo4j) {
  const driver = neo4jDriver.driver(n.uri, neo4jDriver.auth.basic(n.user, n.password));
  let tx = 0;
  let heap = 0;
  let stopped = false;
  let generation = 0;
  let since = Date.now();
  let publishedAfter: number | undefined;
  let published: { generation: number; at: number } | undefined;
  // A national refresh publishes once per state: the last one ends it.
  let lastAfter: number | undefined;
  let last: { generation: number; at: number } | undefined;
  const sample = async () => {
    while (!stopped) {
      const [t, h] = await Promise.all([
        driver.executeQuery('SHOW TRANSACTIONS YIELD estimatedUsedHeapMemory RETURN max(estimatedUsedHeapMemory) AS m').then((r) => Number(r.records[0].get('m') ?? 0), () => 0),
        driver.executeQuery("CALL dbms.queryJmx('java.lang:type=Memory') YIELD attributes RETURN attributes.HeapMemoryUsage.value.properties.used AS used").then((r) => Number(r.records[0].get('used')), () => 0),
      ]);
      tx = Math.max(tx, t);
      heap = Math.max(heap, h);
      const g = await driver.executeQuery("OPTIONAL MATCH (s:Snapshot {id: 'graph'}) RETURN coalesce(s.generation, 0) AS g").then((r) => Number(r.records[0].get('g')), () => generation);
      if (generation >= 0 && g !== generation) {
        lastAfter = Date.now() - since;
        last = { generation: g, at: Date.now() };
        publishedAfter ??= lastAfter;
        published ??= last;
      }
      generation = g;
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const running = sample();
  return {
    reset: () => {
      tx = heap = 0;
      since = Date.now();
      generation = -1;
      publishedAfter = lastAfter = undefined;
      published = last = undefined;
    },
    /** The first generation published since the last reset, and when the sampler saw it (within about 300 ms). */
    published: () => published,
    /** The last generation published since the last reset (the same as the first for one state's refresh). */
    lastPublished: () => last,
    /**
     * Seconds from `since` until what publishes replaced is collected (no superseded or pending
     * version left, and no claim on the graph), polled every 500 ms for at most `waitMs`.
     */
    async collected(since: number, waitMs = 900_000): Promise<number> {
      const query = "OPTIONAL MATCH (s:Snapshot {id: 'graph'}) RETURN COUNT { (c:Superseded|Pending) } AS left, s.holder AS holder";
      for (const until = Date.now() + waitMs; Date.now() < until; await new Promise((r) => setTimeout(r, 500))) {
        const [r] = (await driver.executeQuery(query)).records;
        if (Number(r.get('left')) === 0 && r.get('holder') == null) return (Date.now() - since) / 1000;
      }
      return Infinity;
    },
    peaks: () =>
      `Neo4j peak transaction memory ${(tx / MB).toFixed(0)} MB, heap ${(heap / MB).toFixed(0)} MB` +
      (publishedAfter === undefined ? '' : `, published after ${(publishedAfter / 1000).toFixed(1)} s`) +
      (lastAfter === undefined || lastAfter === publishedAfter ? '' : `, the last publish after ${(lastAfter / 1000).toFixed(1)} s`),
    async close() {
      stopped = true;
      await running;
      await driver.close();
    },
  };
}

/** A statement's times in a run, as `npm run ingest -- --timings` gives them. */
export interface StatementTime {
  name: string;
  statements: number;
  seconds: number;
}

/** Runs `npm run ingest` (src/cli/ingest.ts, with the script's node flags) as its own process, as an operator does; its summary, its statement times (with --timings) and peak RSS (VmHWM). */
export function ingestCommand(args: string[], env: Record<string, string | undefined>): Promise<{ summary?: RefreshSummary; statements?: StatementTime[]; error?: string; peakRss: number }> {
  // The node flags of the npm script (its heap limit), on a node process of its own whose RSS is the command's.
  const script = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.ingest;
  const flags = script.split(/\s+/).filter((w) => w.startsWith('--'));
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', 'src/cli/ingest.ts', ...args, '--json'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  let peakRss = 0;
  const sample = () => {
    try {
      peakRss = Math.max(peakRss, 1024 * Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0));
    } catch {
      // The process has ended: its last sample stands.
    }
  };
  const sampler = setInterval(sample, 200);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearInterval(sampler);
      const failed = () => ({ error: (err.trim().split('\n').at(-1) ?? `exit ${code}`).slice(0, 500), peakRss });
      if (!args.includes('--all')) {
        if (code !== 0) return resolve(failed());
        const { statements, ...summary } = JSON.parse(out) as RefreshSummary & { statements?: StatementTime[] };
        return resolve({ summary, statements, peakRss });
      }
      // A national refresh prints its states' outcomes (exit code 1 when one failed): their sums.
      let all: { states: ({ state: string; landed: true; summary: RefreshSummary } | { state: string; landed: false; error: string })[]; statements?: StatementTime[] };
      try {
        all = JSON.parse(out);
      } catch {
        return resolve(failed());
      }
      const landed = all.states.flatMap((s) => (s.landed ? [s.summary] : []));
      const sum = (k: keyof RefreshSummary) => landed.reduce((n, x) => n + (x[k] as number), 0);
      const summary = { ...landed[0], state: landed.map((x) => x.state).join(', '), ...Object.fromEntries((['rows_read', 'inserted', 'updated', 'unchanged', 'left_source', 'edges_opened', 'edges_closed', 'rejected', 'links_rejected', 'elapsed_ms'] as const).map((k) => [k, sum(k)])) } as RefreshSummary;
      const errors = all.states.flatMap((s) => (s.landed ? [] : [`${s.state}: ${s.error}`]));
      resolve({ summary: landed.length ? summary : undefined, statements: all.statements, error: errors.length ? errors.join('; ').slice(0, 500) : undefined, peakRss });
    }),
  );
}

