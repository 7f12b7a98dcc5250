// Issue 60: what receipts cost. On each engine, with the demo dataset (the smallest graph: a verify
// is at its cheapest there, so the receipts' share is at its largest), a server restarted per mode,
// the order alternating run by run:
// - off: no verification records (RECORD_VERIFICATIONS=false), so no receipts;
// - recording: records, no receipt asked for (the default: a receipt is signed when first asked for);
// - receipts: records, and every verify followed by its receipt (signed then, the first ask).
// Closed loops of verify calls with a name (the matcher's path), saturation and the server's CPU
// per verification (/proc, every thread); the signature's own CPU measured in this process; the
// first ask of a receipt against a later one; a roster job with and without its summary PDF.
// Usage: npm run bench:receipts [-- --engine ladybug,neo4j --runs 5 --seconds 8 --connections 48 --job-rows 100000]
//   More loops than the server serves at once (16), so that it saturates: a call shed with 503 is tried again 20 ms later.
//   Neo4j: the repo's launcher at its default memory (tools/neo4j/neo4j.conf), beside PostgreSQL
//   (BENCH_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/postgres, a schema of its own).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { compose } from '../src/compose/index.js';
import { loadConfig } from '../src/config.js';
import { importFolder } from '../src/ingest/load.js';
import { openKeyring } from '../src/modules/receipts/keyring.js';
import { createSigner, RECEIPT_TYPES } from '../src/modules/receipts/signer.js';
import { DEMO_SEEDS } from '../src/start-up.js';
import { freePort, startLocalNeo4j, type LocalNeo4j } from '../test/helpers/local-neo4j.js';
import { apiKey, waitFor } from './national-stores.js';
import { median, quantile } from './paced.js';
import { benchSchema } from './pg-schema.js';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'ladybug,neo4j' },
    runs: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '48' },
    'job-rows': { type: 'string', default: '100000' },
    // Neo4j's side store: PostgreSQL (production's) or PGlite (in the API's process).
    'neo4j-side': { type: 'string', default: 'postgres' },
    out: { type: 'string' },
  },
});
const RUNS = Number(values.runs);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const JOB_ROWS = Number(values['job-rows']);
const TICKS_PER_SECOND = 100;
const SHED_PAUSE_MS = 20;
const ROOT = new URL('../', import.meta.url).pathname;

interface Licence {
  state: string;
  license_number: string;
  full_name: string;
}
const LICENCES: Licence[] = (parse(fs.readFileSync(path.join(DEMO_SEEDS, 'credentials.csv')), { columns: true }) as Licence[]).filter((c) => c.full_name);

const cpuSeconds = (pid: number) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
};

/** The machine's CPU ticks, busy and in all (/proc/stat): whether the loops saturate it. */
const machineTicks = () => {
  const [, ...t] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const all = t.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: all - t[3] - t[4], all };
};

/** CPU seconds of every PostgreSQL process on this machine (the side store beside Neo4j): its share of a verification. */
const postgresCpuSeconds = () =>
  fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .reduce((sum, d) => {
      try {
        return fs.readFileSync(`/proc/${d}/comm`, 'utf8').trim() === 'postgres' ? sum + cpuSeconds(Number(d)) : sum;
      } catch {
        return sum;
      }
    }, 0);

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
function get(base: string, pathname: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${pathname}`, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
  });
}

/**
 * `CONNECTIONS` closed loops for `SECONDS`: each verifies a demo licence with its holder's name and,
 * with `receipts`, then asks for that verification's receipt. Verifications a second, the server's
 * CPU per verification, the receipts' latencies, and the ids whose receipts were asked for.
 */
async function loops(base: string, headers: Record<string, string>, pid: number, receipts: boolean) {
  let i = 0;
  let done = 0;
  let shed = 0;
  const receiptMs: number[] = [];
  const asked: string[] = [];
  const end = performance.now() + SECONDS * 1000;
  const cpu0 = cpuSeconds(pid);
  const pg0 = postgresCpuSeconds();
  const m0 = machineTicks();
  const started = performance.now();
  // A call shed at capacity (more loops than the server serves at once) is tried again a moment later.
  const served = async (pathname: string) => {
    for (;;) {
      const res = await get(base, pathname, headers);
      if (res.status !== 503) return res;
      shed++;
      await new Promise((r) => setTimeout(r, SHED_PAUSE_MS));
    }
  };
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const l = LICENCES[i++ % LICENCES.length];
        const v = await served(`/api/v1/licensees/verify?state=${l.state}&license_number=${encodeURIComponent(l.license_number)}&name=${encodeURIComponent(l.full_name)}`);
        if (v.status !== 200) throw new Error(`verify answered ${v.status}: ${v.body.toString().slice(0, 200)}`);
        if (receipts) {
          const id = String(v.headers['verification-id']);
          const t = performance.now();
          const r = await served(`/api/v1/verifications/${id}/receipt`);
          if (r.status !== 200) throw new Error(`receipt answered ${r.status}: ${r.body.toString().slice(0, 200)}`);
          receiptMs.push(performance.now() - t);
          asked.push(id);
        }
        done++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const m1 = machineTicks();
  return { shed: shed / (done + shed), busy: (m1.busy - m0.busy) / (m1.all - m0.all), rps: done / seconds, cpuUs: ((cpuSeconds(pid) - cpu0) / done) * 1e6, pgUs: ((postgresCpuSeconds() - pg0) / done) * 1e6, receiptMs, asked };
}

/** Later asks of receipts already signed (one connection: latency, not throughput). */
async function askedAgain(base: string, headers: Record<string, string>, ids: string[]) {
  const ms: number[] = [];
  for (const id of ids) {
    const t = performance.now();
    const r = await get(base, `/api/v1/verifications/${id}/receipt`, headers);
    if (r.status !== 200) throw new Error(`receipt answered ${r.status}`);
    ms.push(performance.now() - t);
  }
  return ms;
}

/** CPU of one signature of a receipt-sized payload, in this process (the key set on disk, the active key from a store in memory). */
async function signatureCpu(): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-receipts-sign-'));
  const root = compose({ ...loadConfig({ DATA_DIR: dir }), graphPath: ':memory:' });
  try {
    const store = await root.store();
    const { createSigningKeysRepo } = await import('../src/modules/receipts/signing-keys.repo.js');
    const signer = createSigner({ repo: createSigningKeysRepo(store), keyring: openKeyring({ file: path.join(dir, 'keys.json') }), issuer: 'http://localhost:8000', now: () => new Date() });
    const claims = { sub: '0190a1b2-0000-7000-8000-000000000000', jti: '0190a1b2-0000-7000-8000-000000000001', verification: { asked: LICENCES[0], answered: { verified: true, verdict: 'consider', reasons: ['name_close'] }, body_sha256: 'a'.repeat(64) } };
    await signer.sign(claims, RECEIPT_TYPES.verification);
    // The signature alone: the active key's lookup is a store read, not CPU of signing.
    const { SignJWT } = await import('jose');
    const key = (await openKeyring({ file: path.join(dir, 'keys.json') }).newest())!;
    const n = 20_000;
    const t = process.cpuUsage();
    for (let k = 0; k < n; k++) await new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', typ: RECEIPT_TYPES.verification, kid: key.kid }).setIssuer('x').setIssuedAt().sign(key.privateKey);
    const used = process.cpuUsage(t);
    return (used.user + used.system) / n;
  } finally {
    await root.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

interface Engine {
  name: string;
  env: Record<string, string>;
  close: () => Promise<void>;
}

async function ladybug(): Promise<Engine> {
  return { name: 'LadybugDB + PGlite (the defaults)', env: { DEMO_DATA: 'true' }, close: async () => undefined };
}

async function neo4j(dataDir: string): Promise<Engine> {
  const password = 'bench-receipts-password';
  const n: LocalNeo4j = await startLocalNeo4j({ dataDir: path.join(dataDir, 'neo4j'), password });
  const url = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const pglite = values['neo4j-side'] === 'pglite';
  const schema = pglite ? undefined : await benchSchema(url, `lvs_receipts_${process.pid}`);
  const env: Record<string, string> = { NEO4J_URI: n.uri, NEO4J_PASSWORD: password, DEMO_DATA: 'false', ...(schema ? { DATABASE_URL: schema.url } : {}) };
  const root = compose(loadConfig({ ...process.env, DATA_DIR: dataDir, ...env }));
  try {
    await importFolder(await root.imports(), DEMO_SEEDS);
  } finally {
    await root.close();
  }
  return {
    name: `Neo4j (the launcher's memory, tools/neo4j/neo4j.conf) + ${pglite ? 'PGlite' : 'PostgreSQL'}`,
    env,
    close: async () => {
      await n.stop();
      await schema?.drop();
    },
  };
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function measure(engineName: string, make: (dataDir: string) => Promise<Engine>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-receipts-'));
  const engine = await make(dataDir);
  const key = await apiKey(dataDir, engine.env.DATABASE_URL);
  const headers = { authorization: `Bearer ${key}` };
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', LOG_FORMAT: 'json', RATE_LIMITS: 'off', ...engine.env };
  const start = async (record: boolean) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: ROOT, env: { ...env, RECORD_VERIFICATIONS: String(record) }, stdio: ['ignore', 'ignore', 'inherit'] });
    await waitFor(`${base}/api/v1/readiness`, child, 120_000, headers);
    return child;
  };
  const results = { off: [] as number[], recording: [] as number[], receipts: [] as number[], cpuOff: [] as number[], cpuRecording: [] as number[], cpuReceipts: [] as number[], pgOff: [] as number[], pgRecording: [] as number[], busyOff: [] as number[], busyRecording: [] as number[], shedOff: [] as number[], shedRecording: [] as number[] };
  let firstAsk: number[] = [];
  let laterAsk: number[] = [];
  try {
    for (let run = 1; run <= RUNS; run++) {
      for (const mode of run % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        const child = await start(mode === 'on');
        try {
          await loops(base, headers, child.pid!, false); // warm-up, not measured
          if (mode === 'off') {
            const r = await loops(base, headers, child.pid!, false);
            results.off.push(r.rps), results.cpuOff.push(r.cpuUs), results.pgOff.push(r.pgUs), results.busyOff.push(r.busy), results.shedOff.push(r.shed);
          } else {
            const r = await loops(base, headers, child.pid!, false);
            results.recording.push(r.rps), results.cpuRecording.push(r.cpuUs), results.pgRecording.push(r.pgUs), results.busyRecording.push(r.busy), results.shedRecording.push(r.shed);
            const s = await loops(base, headers, child.pid!, true);
            results.receipts.push(s.rps), results.cpuReceipts.push(s.cpuUs);
            firstAsk = firstAsk.concat(s.receiptMs);
            laterAsk = laterAsk.concat(await askedAgain(base, headers, s.asked.slice(0, 300)));
          }
          console.log(`${engineName} run ${run}, ${mode}: off ${results.off.at(-1)?.toFixed(0) ?? '-'} recording ${results.recording.at(-1)?.toFixed(0) ?? '-'} receipts ${results.receipts.at(-1)?.toFixed(0) ?? '-'} verifications/s; server CPU off ${results.cpuOff.at(-1)?.toFixed(0) ?? '-'} recording ${results.cpuRecording.at(-1)?.toFixed(0) ?? '-'} µs; PostgreSQL off ${results.pgOff.at(-1)?.toFixed(0) ?? '-'} recording ${results.pgRecording.at(-1)?.toFixed(0) ?? '-'} µs; machine busy off ${((results.busyOff.at(-1) ?? NaN) * 100).toFixed(0)}% recording ${((results.busyRecording.at(-1) ?? NaN) * 100).toFixed(0)}%; shed off ${((results.shedOff.at(-1) ?? NaN) * 100).toFixed(0)}% recording ${((results.shedRecording.at(-1) ?? NaN) * 100).toFixed(0)}%`);
        } finally {
          await stop(child);
        }
      }
    }
    const job = await jobCost(start, base, headers);
    return { engine: engine.name, results, firstAsk, laterAsk, job };
  } finally {
    await engine.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A roster of JOB_ROWS demo licences (with names) verified as a job, then its summary PDF. */
async function jobCost(start: (record: boolean) => Promise<ChildProcess>, base: string, headers: Record<string, string>) {
  const child = await start(true);
  try {
    const rows = Array.from({ length: JOB_ROWS }, (_, k) => {
      const l = LICENCES[k % LICENCES.length];
      return { state: l.state, license_number: l.license_number, name: l.full_name };
    });
    const t0 = performance.now();
    const res = await fetch(`${base}/api/v1/verification-jobs`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ rows, label: 'bench' }) });
    if (res.status !== 202) throw new Error(`job upload answered ${res.status}: ${await res.text()}`);
    const id = ((await res.json()) as { data: { id: string } }).data.id;
    for (;;) {
      const j = (await (await fetch(`${base}/api/v1/verification-jobs/${id}`, { headers })).json()) as { data: { status: string } };
      if (j.data.status === 'completed') break;
      if (j.data.status !== 'queued' && j.data.status !== 'running') throw new Error(`job ${j.data.status}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const jobSeconds = (performance.now() - t0) / 1000;
    // The job's receipt (over every row), signed by the worker that finished it, or by this ask if it comes first.
    const receipt = await get(base, `/api/v1/verification-jobs/${id}/receipt`, headers);
    if (receipt.status !== 200) throw new Error(`job receipt answered ${receipt.status}: ${receipt.body.toString().slice(0, 200)}`);
    const receiptSeconds = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    const pdf = await get(base, `/api/v1/verification-jobs/${id}/summary.pdf`, headers);
    if (pdf.status !== 200) throw new Error(`summary answered ${pdf.status}`);
    const pdfSeconds = (performance.now() - t1) / 1000;
    const t2 = performance.now();
    const csv = await get(base, `/api/v1/verification-jobs/${id}/results.csv`, headers);
    if (csv.status !== 200) throw new Error(`results.csv answered ${csv.status}`);
    const csvSeconds = (performance.now() - t2) / 1000;
    return { jobSeconds, receiptSeconds, pdfSeconds, csvSeconds, pdfMb: pdf.body.length / 2 ** 20, peakRssMb: Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024 };
  } finally {
    await stop(child);
  }
}

async function main() {
  const engines = values.engine.split(',');
  const signUs = await signatureCpu();
  console.log(`one receipt's signature (jose, Ed25519, a receipt-sized payload): ${signUs.toFixed(1)} µs of CPU`);
  const lines: string[] = [
    '# Receipts: what they cost (issue 60)',
    '',
    `\`npm run bench:receipts -- --engine ${values.engine} --neo4j-side ${values['neo4j-side']} --runs ${RUNS} --seconds ${SECONDS} --connections ${CONNECTIONS} --job-rows ${JOB_ROWS}\`; ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB, Node ${process.version}; ${new Date().toISOString().slice(0, 10)}.`,
    'The demo dataset; servers restarted per mode, the order alternating run by run; medians of the runs (ranges in brackets).',
    'Memory: LadybugDB at the server\'s defaults (GRAPH_BUFFER_POOL_MB 1024); Neo4j at the launcher\'s (tools/neo4j/neo4j.conf: 1 GB heap, 512 MB page cache).',
    '',
    `- One signature's CPU (jose SignJWT, Ed25519, a receipt's claims): ${signUs.toFixed(1)} µs`,
  ];
  for (const e of engines) {
    const m = await measure(e, e === 'neo4j' ? neo4j : ladybug);
    const r = m.results;
    const range = (xs: number[]) => `(${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)})`;
    const [off, rec, rcp] = [median(r.off), median(r.recording), median(r.receipts)];
    const [cOff, cRec, cRcp] = [median(r.cpuOff), median(r.cpuRecording), median(r.cpuReceipts)];
    const first = [...m.firstAsk].sort((a, b) => a - b);
    const later = [...m.laterAsk].sort((a, b) => a - b);
    lines.push(
      '',
      `## ${m.engine}`,
      '',
      '| mode | verifications/s | ratio to off | server CPU per verification |',
      '|---|---|---|---|',
      `| off (no records) | ${off.toFixed(0)} ${range(r.off)} | 1.00 | ${cOff.toFixed(0)} µs |`,
      `| recording (receipts signed when asked for: none asked) | ${rec.toFixed(0)} ${range(r.recording)} | ${(rec / off).toFixed(2)} | ${cRec.toFixed(0)} µs |`,
      `| recording, every verify followed by its receipt's first ask | ${rcp.toFixed(0)} ${range(r.receipts)} | ${(rcp / off).toFixed(2)} | ${cRcp.toFixed(0)} µs |`,
      '',
      `- Signing adds nothing to a verify: a receipt is signed when first asked for. Signed when the record is written, a signature (${signUs.toFixed(0)} µs) would add ${((signUs / cRec) * 100).toFixed(1)}% to a recorded verify's server CPU (goal at most 10%).`,
      `- The machine's CPU busy during the loops (every process, ${os.cpus().length} cores): off ${(median(r.busyOff) * 100).toFixed(0)}%, recording ${(median(r.busyRecording) * 100).toFixed(0)}%. Calls shed at capacity (503, tried again ${SHED_PAUSE_MS} ms later): off ${(median(r.shedOff) * 100).toFixed(0)}%, recording ${(median(r.shedRecording) * 100).toFixed(0)}%.`,
      `- PostgreSQL's CPU per verification (every postgres process on the machine): off ${median(r.pgOff).toFixed(0)} µs, recording ${median(r.pgRecording).toFixed(0)} µs.`,
      `- Saturation with recording, receipts signed when asked for, against off: ${(rec / off).toFixed(2)} (goal at least 0.80): ${rec / off >= 0.8 ? 'met' : 'missed'}; with every receipt asked for too: ${(rcp / off).toFixed(2)}.`,
      `- A receipt's first ask (signed and kept): p50 ${quantile(first, 0.5).toFixed(2)} ms, p99 ${quantile(first, 0.99).toFixed(2)} ms under the loops' load; a later ask (read): p50 ${quantile(later, 0.5).toFixed(2)} ms, p99 ${quantile(later, 0.99).toFixed(2)} ms, one at a time.`,
      `- A ${JOB_ROWS.toLocaleString('en-US')}-row roster job (names sent): ${m.job.jobSeconds.toFixed(1)} s until completed, ${m.job.receiptSeconds.toFixed(1)} s until its receipt over every row answers: ${(m.job.receiptSeconds / m.job.jobSeconds).toFixed(2)} of the job alone (goal within 1.15): ${m.job.receiptSeconds / m.job.jobSeconds <= 1.15 ? 'met' : 'missed'}. Then its summary PDF (every row, and that receipt) ${m.job.pdfSeconds.toFixed(1)} s, ${m.job.pdfMb.toFixed(1)} MB; its results as CSV ${m.job.csvSeconds.toFixed(1)} s; server peak RSS ${m.job.peakRssMb.toFixed(0)} MB.`,
    );
  }
  const text = `${lines.join('\n')}\n`;
  console.log(`\n${text}`);
  if (values.out) fs.writeFileSync(values.out, text);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
