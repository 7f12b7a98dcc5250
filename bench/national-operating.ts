// Issue 38: what the metrics and the request-rate limiter cost on verify, and whether the limiter
// keeps one account's flood from another's latency. Servers are restarted for each mode, the order
// alternating run by run; CPU is the server process's own (/proc, every thread: PGlite's worker too).
import fs from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median, paced, quantile, type Scenario } from './paced.js';

type Saturate = (base: string, headers: Record<string, string>, s: Scenario) => Promise<{ rps: number; count: number; bad: number }>;

const TICKS_PER_SECOND = 100;

/** CPU seconds the process has used, user and system. */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/**
 * `rate` requests a second of `s` for `seconds`, evenly paced and open loop, from a process of its
 * own (flood.ts); its answers by status and their p99. (autocannon's overall rate sends each
 * second's share at the second's start: a burst at saturation, not the rate asked for.)
 */
async function floodFrom(base: string, headers: Record<string, string>, s: Scenario, rate: number, seconds: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', FLOOD, `${base}${s.next().path}`, String(Math.round(rate)), String(seconds), headers.authorization], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  await new Promise((resolve) => child.once('exit', resolve));
  return JSON.parse(out) as { statuses: Record<string, number>; total: number; p99: number };
}

const FLOOD = fileURLToPath(new URL('./flood.ts', import.meta.url));

/** The modes compared: both on as an operator runs them (a metrics port, rates the bench's own account never reaches), both off. */
const MODES = {
  on: (metricsPort: number) => ({ METRICS_PORT: String(metricsPort), RATE_LIMITS: 'enterprise=100000:100000' }),
  off: () => ({ RATE_LIMITS: 'off' }),
};

export async function operatingCost(o: {
  engine: string;
  base: string;
  /** The bench's enterprise key. */
  headers: Record<string, string>;
  /** A key on the growth plan (25 a second, bursts of 50): the account that floods. */
  flooder: Record<string, string>;
  verify: Scenario;
  /** The latency runs' rate, req/s. */
  rate: number;
  runs: number;
  seconds: number;
  metricsPort: number;
  start: (extra: Record<string, string>) => Promise<{ child: ChildProcess }>;
  stop: (child: ChildProcess) => Promise<void>;
  saturate: Saturate;
  /** false: the fair share alone. */
  cost: boolean;
}): Promise<string[]> {
  const { base, headers, verify, rate, runs, seconds } = o;
  const rps: Record<'on' | 'off', number[]> = { on: [], off: [] };
  const cpu: Record<'on' | 'off', number[]> = { on: [], off: [] };
  let scraped = '';
  for (let run = 1; o.cost && run <= runs; run++) {
    for (const mode of run % 2 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
      const { child } = await o.start(MODES[mode](o.metricsPort));
      try {
        console.log(`${o.engine}: metrics and rates ${mode}, run ${run} of ${runs}: ${verify.name}`);
        await o.saturate(base, headers, verify);
        const before = cpuSeconds(child.pid!);
        const r = await o.saturate(base, headers, verify);
        const used = cpuSeconds(child.pid!) - before;
        if (r.bad) throw new Error(`metrics and rates ${mode}: ${r.bad} answers were not 2xx`);
        rps[mode].push(r.rps);
        cpu[mode].push((used / r.count) * 1e6);
        if (mode === 'on') scraped = await (await fetch(`http://127.0.0.1:${o.metricsPort}/metrics`)).text();
      } finally {
        await o.stop(child);
      }
    }
  }
  const served = /^lvs_http_requests_total\{route="\/api\/v1\/licensees\/verify",method="GET",status="200"\} (\d+)/m.exec(scraped)?.[1];

  // Fairness: the flooder offers half of /health's saturation, open loop, while the bench's account
  // runs its verifies at the latency rate; alone first, then beside the flood, in each run.
  const { child } = await o.start(MODES.on(o.metricsPort));
  const alone: number[] = [];
  const beside: number[] = [];
  const flood: { offered: number; ok: number; limited: number; other: number; seconds: number; p99: number }[] = [];
  try {
    for (let run = 1; run <= runs; run++) {
      const health = (await o.saturate(base, {}, { name: 'health', next: () => ({ path: '/health' }) })).rps;
      console.log(`${o.engine}: fair share, run ${run} of ${runs}: verifies alone, then beside a flood at ${Math.round(health / 2)} req/s`);
      await paced(base, headers, verify, rate, rate);
      const a = await paced(base, headers, verify, rate, rate * seconds);
      alone.push(quantile(a.samples.sort((x, y) => x - y), 0.99));
      await paced(base, headers, verify, rate, rate);
      // The flood comes from a process of its own, as another client's would: sharing this
      // process's event loop, it would delay the measured client's own requests.
      const floodSeconds = seconds + 2;
      const f = floodFrom(base, o.flooder, verify, health / 2, floodSeconds);
      await new Promise((r) => setTimeout(r, 1000));
      const b = await paced(base, headers, verify, rate, rate * seconds);
      const answered = await f;
      beside.push(quantile(b.samples.sort((x, y) => x - y), 0.99));
      const limited = answered.statuses['429'] ?? 0;
      const ok = answered.statuses['200'] ?? 0;
      flood.push({ offered: health / 2, ok, limited, other: answered.total - ok - limited, seconds: floodSeconds, p99: answered.p99 });
      if (b.bad) console.log(`${o.engine}: fair share, run ${run}: ${b.bad} of the paced verifies were not 200: ${JSON.stringify(b.others)}`);
      // The flood's window ends before the next run.
      await new Promise((r) => setTimeout(r, 3000));
    }
  } finally {
    await o.stop(child);
  }

  const range = (xs: number[], digits: number) => (xs.length > 1 ? ` (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})` : '');
  const [on, off] = [median(rps.on), median(rps.off)];
  const [cpuOn, cpuOff] = [median(cpu.on), median(cpu.off)];
  const lower = 1 - on / off;
  const ratio = median(beside) / median(alone);
  const f = flood[Math.floor(flood.length / 2)];
  const costLine = () =>
    `- metrics and request rates on (a metrics port, rates counted) against both off, ${verify.name}, saturation: ${on.toFixed(0)} req/s${range(rps.on, 0)} against ${off.toFixed(0)} req/s${range(rps.off, 0)}: ` +
      `${(100 * lower).toFixed(1)}% lower (goal at most 5%: ${lower <= 0.05 ? 'met' : 'missed'}); server CPU per request ${cpuOn.toFixed(0)} µs${range(cpu.on, 0)} against ${cpuOff.toFixed(0)} µs${range(cpu.off, 0)} ` +
      `(+${(cpuOn - cpuOff).toFixed(0)} µs); the last scrape counted ${served ?? '?'} verifies served`;
  return [
    ...(o.cost ? [costLine()] : []),
    `- fair share: an account on the growth plan (25 a second, bursts of 50) offering half of /health's saturation (${f.offered.toFixed(0)} req/s, evenly paced and open loop) got ${(f.ok / f.seconds).toFixed(1)} req/s served and ${f.limited.toLocaleString('en-US')} 429s` +
      `${f.other ? ` and ${f.other} other answers` : ''} (their p99 ${f.p99.toFixed(1)} ms, from a process of its own); another account's ${verify.name} at ${rate} req/s: p99 alone ${median(alone).toFixed(1)} ms${range(alone, 1)}, beside the flood ${median(beside).toFixed(1)} ms${range(beside, 1)}: ` +
      `${ratio.toFixed(2)}x (goal at most 2x: ${ratio <= 2 ? 'met' : 'missed'})`,
  ];
}
