// Peak memory of the server on the embedded defaults with the demo data, as `npm start` runs it:
// a first start on an empty data dir (demo load), serving at a steady 100 requests a second, then
// as fast as 8 connections go, and a restart on the same dir. Peaks are the server process's
// VmHWM; the one-off initdb child of a new accounts store is reported beside them. Target: at
// most 400 MB at first start and while serving.
// Usage: npm run bench:memory [-- --runs 3 --seconds 5]
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, seconds: { type: 'string', default: '5' } } });
const RUNS = Number(values.runs);
const SECONDS = Number(values.seconds);
const TARGET_MB = 400;
const PACED_RATE = 100;
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { NEO4J_URI: _n, DATABASE_URL: _d, ...ENV } = process.env;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const statusMb = (pid: number, field: 'VmHWM' | 'VmRSS') => {
  const m = new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

/** `npm start` on a data dir; resolves with the server's pid, address and demo key once it serves. */
async function start(dataDir: string, firstStart: boolean): Promise<{ child: ChildProcess; pid: number; url: string; key?: string; initdbMb: number }> {
  const child = spawn('npm', ['start', '--silent'], { cwd: ROOT, env: { ...ENV, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_FORMAT: 'json' } });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  // The initdb child of a new accounts store: sampled while it lives.
  let initdbMb = 0;
  const sampler = setInterval(() => {
    for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      try {
        if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('pglite-initdb.mjs')) initdbMb = Math.max(initdbMb, statusMb(Number(pid), 'VmHWM'));
      } catch {
        // gone
      }
    }
  }, 100);
  try {
    for (let i = 0; i < 600; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const url = /listening on (http:\/\/[^\s"]+)/.exec(out)?.[1];
      const handle = path.join(dataDir, 'server.json');
      // A first start is done once it has printed the demo account's key.
      if (url && fs.existsSync(handle) && (!firstStart || /Demo account/.test(out))) {
        const { pid } = JSON.parse(fs.readFileSync(handle, 'utf8')) as { pid: number };
        const key = /Bearer (lvs_live_[A-Za-z0-9_-]{32})/.exec(out)?.[1];
        return { child, pid, url, key, initdbMb };
      }
    }
    throw new Error(`the server did not start:\n${out}`);
  } finally {
    clearInterval(sampler);
  }
}

/** Stops the server itself (npm and tsx stand between it and `child`) and waits for all to exit. */
async function stop(server: { child: ChildProcess; pid: number }) {
  const exited = new Promise((r) => server.child.once('exit', r));
  process.kill(server.pid, 'SIGTERM');
  while (fs.existsSync(`/proc/${server.pid}`)) await new Promise((r) => setTimeout(r, 50));
  await exited;
}

/** Mixed lookups for SECONDS: paced at `rate` requests a second, or as fast as 8 connections go. */
async function serve(url: string, key: string, rate?: number) {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const batch = JSON.stringify({ licenses: Array.from({ length: 100 }, (_, i) => ({ state: 'TX', license_number: `${400000 + i}-SA` })) });
  const requests = [
    { method: 'GET' as const, path: '/api/v1/licensees/verify?state=TX&license_number=406526-SA' },
    { method: 'GET' as const, path: '/api/v1/licensees?state=FL&name=garcia' },
    { method: 'POST' as const, path: '/api/v1/licensees/batch', body: batch },
    { method: 'GET' as const, path: '/api/v1/licensees/TX/406526-SA/affiliations?include_inactive=true' },
  ];
  const result = await autocannon({ url, headers, requests, connections: 8, duration: SECONDS, ...(rate ? { overallRate: rate } : {}) });
  if (result.non2xx || result.errors) throw new Error(`serving: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.total;
}

async function main() {
  const rows: { first: number; paced: number; serving: number; restart: number; initdb: number; requests: number }[] = [];
  for (let run = 0; run < RUNS; run++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-bench-memory-'));
    try {
      const first = await start(dataDir, true);
      const firstPeak = statusMb(first.pid, 'VmHWM');
      await serve(first.url, first.key!, PACED_RATE);
      const pacedPeak = statusMb(first.pid, 'VmHWM');
      const requests = await serve(first.url, first.key!);
      const servingPeak = statusMb(first.pid, 'VmHWM');
      await stop(first);
      const again = await start(dataDir, false);
      await serve(again.url, first.key!, PACED_RATE);
      const restartPeak = statusMb(again.pid, 'VmHWM');
      await stop(again);
      rows.push({ first: firstPeak, paced: pacedPeak, serving: servingPeak, restart: restartPeak, initdb: first.initdbMb, requests });
      console.log(
        `run ${run + 1}: first start ${firstPeak.toFixed(0)} MB, serving ${PACED_RATE}/s ${pacedPeak.toFixed(0)} MB, saturated ${servingPeak.toFixed(0)} MB (${requests} requests), ` +
          `restart and serving ${PACED_RATE}/s ${restartPeak.toFixed(0)} MB, initdb child ${first.initdbMb.toFixed(0)} MB`,
      );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const line = (label: string, xs: number[]) =>
    `${label.padEnd(34)} median ${median(xs).toFixed(0).padStart(4)} MB (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)})  ${(median(xs) / TARGET_MB).toFixed(2)} of the ${TARGET_MB} MB target`;
  console.log(`\npeak RSS of the demo server, ${RUNS} runs, ${os.cpus().length} cores, Node ${process.version}`);
  console.log(line('first start (demo load)', rows.map((r) => r.first)));
  console.log(line(`then serving ${PACED_RATE} req/s`, rows.map((r) => r.paced)));
  console.log(line('then saturated (8 connections)', rows.map((r) => r.serving)));
  console.log(line(`restart, serving ${PACED_RATE} req/s`, rows.map((r) => r.restart)));
  console.log(`${'initdb child (exits before the load)'.padEnd(34)} median ${median(rows.map((r) => r.initdb)).toFixed(0).padStart(4)} MB`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
