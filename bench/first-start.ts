// A new user's first minutes: `npm start` on an empty data dir (the embedded defaults, demo data),
// timed from the command to the first log line and to the first 200 from /health, then a restart
// on the same dir. Runs interleave nothing else; medians of --runs. With --cold, one more first start
// after removing tsx's compile cache, and one without the accounts store's template (as after
// `npm install --ignore-scripts`), each reported on its own.
// Goal (issue 55): a first start at most 5 s to /health, the first log line within 1 s.
// Usage: npm run bench:first-start [-- --runs 3 --cold]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { templateFolder } from '../src/store/pglite-template.js';
import { freePort } from '../test/helpers/local-neo4j.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, cold: { type: 'boolean', default: false } } });
const RUNS = Number(values.runs);
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { NEO4J_URI: _n, DATABASE_URL: _d, ...ENV } = process.env;
const GOAL_HEALTH_S = 5;
const GOAL_FIRST_LINE_S = 1;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

interface Start {
  firstLine: number;
  health: number;
  /** Each log line's message and its time from the command, in seconds. */
  steps: { at: number; msg: string }[];
}

/** `npm start` on `dataDir` until /health answers 200; then SIGTERM and wait for the exit. */
async function start(dataDir: string): Promise<Start> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn('npm', ['start', '--silent'], { cwd: ROOT, env: { ...ENV, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_FORMAT: 'json' }, detached: true });
  let firstLine = Number.NaN;
  const steps: Start['steps'] = [];
  let pending = '';
  child.stdout!.on('data', (d: Buffer) => {
    const at = (performance.now() - t0) / 1000;
    if (Number.isNaN(firstLine)) firstLine = at;
    pending += d.toString();
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      const msg = /"msg":"([^"]*)"/.exec(line)?.[1];
      if (msg && msg !== 'request completed') steps.push({ at, msg });
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before /health answered`);
      const ok = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
      if (ok) return { firstLine, health: (performance.now() - t0) / 1000, steps };
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    // npm stands between: the whole group stops, and the server (its pid in server.json) is waited for.
    const handle = path.join(dataDir, 'server.json');
    const pid = fs.existsSync(handle) ? (JSON.parse(fs.readFileSync(handle, 'utf8')) as { pid: number }).pid : undefined;
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
    while (pid && fs.existsSync(`/proc/${pid}`)) await new Promise((r) => setTimeout(r, 50));
  }
}

async function once(label: string, prepare?: () => void): Promise<Start> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-first-start-'));
  try {
    prepare?.();
    const first = await start(dataDir);
    console.log(`${label}: first log line ${first.firstLine.toFixed(2)} s, /health ${first.health.toFixed(2)} s`);
    for (const s of first.steps) console.log(`  ${s.at.toFixed(2)} s  ${s.msg.slice(0, 110)}`);
    return first;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const firsts: Start[] = [];
  const restarts: Start[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-first-start-'));
    try {
      const first = await start(dataDir);
      const again = await start(dataDir);
      firsts.push(first);
      restarts.push(again);
      console.log(`run ${run}: first start: first log line ${first.firstLine.toFixed(2)} s, /health ${first.health.toFixed(2)} s; restart /health ${again.health.toFixed(2)} s`);
      for (const s of first.steps) console.log(`  ${s.at.toFixed(2)} s  ${s.msg.slice(0, 110)}`);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const health = median(firsts.map((f) => f.health));
  const line = median(firsts.map((f) => f.firstLine));
  const lines = [
    `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), Node ${process.version}, load average ${os.loadavg()[0].toFixed(2)} at the end; ${new Date().toISOString().slice(0, 10)}; ${RUNS} runs, medians (range).`,
    `- first start on an empty data dir, warm caches: /health ${health.toFixed(2)} s (${Math.min(...firsts.map((f) => f.health)).toFixed(2)}-${Math.max(...firsts.map((f) => f.health)).toFixed(2)}); goal ${GOAL_HEALTH_S} s: ${health <= GOAL_HEALTH_S ? 'met' : 'missed'}`,
    `- its first log line: ${line.toFixed(2)} s; goal ${GOAL_FIRST_LINE_S} s: ${line <= GOAL_FIRST_LINE_S ? 'met' : 'missed'}`,
    `- restart on the same dir: /health ${median(restarts.map((f) => f.health)).toFixed(2)} s`,
  ];
  if (values.cold) {
    const tsxCache = path.join(os.tmpdir(), `tsx-${os.userInfo().uid}`);
    const cold = await once('cold tsx cache', () => fs.rmSync(tsxCache, { recursive: true, force: true }));
    lines.push(`- first start with tsx's compile cache removed: first log line ${cold.firstLine.toFixed(2)} s, /health ${cold.health.toFixed(2)} s`);
    const template = templateFolder();
    const aside = `${template}.aside`;
    fs.renameSync(template, aside);
    try {
      const bare = await once('no store template');
      lines.push(`- first start without the accounts store's template (npm install --ignore-scripts; this start makes it): /health ${bare.health.toFixed(2)} s`);
    } finally {
      if (fs.existsSync(template)) fs.rmSync(aside, { recursive: true, force: true });
      else fs.renameSync(aside, template);
    }
  }
  console.log(`\n${lines.join('\n')}`);
}

await main();
