// Issue 37: a roster job at national scale. A 100,000-row roster uploaded as CSV to the running
// server and timed from the upload to the job's completion, alone; then interactive verifies at
// the paced rate, alone and beside the same job, for their p99.
import { stringify } from 'csv-stringify/sync';
import { median, paced, quantile, type Scenario } from './paced.js';

interface Key {
  state: string;
  license_number: string;
  name: string;
}

const ROSTER_ROWS = 100_000;

/** Rows drawn from `keys` by `random`: every 20th a licence not on file, every 10th with another person's name. */
export function rosterCsv(keys: Key[], random: () => number): string {
  const rows = Array.from({ length: ROSTER_ROWS }, (_, i) => {
    const k = keys[Math.floor(random() * keys.length)];
    if (i % 20 === 19) return [k.state, `NOPE${i}`, k.name];
    return [k.state, k.license_number, i % 10 === 9 ? keys[Math.floor(random() * keys.length)].name : k.name];
  });
  return stringify([['state', 'license_number', 'name'], ...rows]);
}

interface Job {
  id: string;
  status: string;
  rows_done: number;
  rows_total: number;
  counts: Record<string, number>;
  units_charged: number;
}

/** The job; an answer that is not 200 (a 503 under load, say) is retried. */
async function jobOf(base: string, headers: Record<string, string>, id: string): Promise<Job> {
  for (;;) {
    const res = await fetch(`${base}/api/v1/verification-jobs/${id}`, { headers });
    if (res.ok) return ((await res.json()) as { data: Job }).data;
    console.log(`job ${id}: ${res.status} ${(await res.text()).slice(0, 200)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Uploads the roster and waits for its job to complete, polling every 250 ms; `done` is set then. */
async function runJob(base: string, headers: Record<string, string>, csv: string, done: { at?: number }) {
  const started = performance.now();
  const res = await fetch(`${base}/api/v1/verification-jobs`, { method: 'POST', headers: { ...headers, 'content-type': 'text/csv' }, body: csv });
  if (res.status !== 202) throw new Error(`roster upload: ${res.status} ${await res.text()}`);
  const upload = performance.now() - started;
  const { id } = ((await res.json()) as { data: Job }).data;
  let job: Job;
  for (;;) {
    job = await jobOf(base, headers, id);
    if (!['queued', 'running'].includes(job.status)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  done.at = performance.now();
  if (job.status !== 'completed') throw new Error(`roster job ${id} ended ${job.status}`);
  return { job, upload, seconds: (done.at - started) / 1000 };
}

/**
 * `runs` rounds: the verify scenario alone at `rate`, then a roster job with the same verifies
 * beside it for as long as the job runs. Returns the results' lines.
 */
export async function rosterCost(o: { engine: string; base: string; headers: Record<string, string>; csv: string; verify: Scenario; rate: number; seconds: number; runs: number; rss: () => { now: number; peak: number } }): Promise<string[]> {
  const { base, headers, verify, rate } = o;
  const alone: number[] = [];
  const beside: number[] = [];
  const rowsPerSecond: number[] = [];
  const seconds: number[] = [];
  const uploads: number[] = [];
  const bad: number[] = [];
  let last: Job | undefined;
  const besideSeconds: number[] = [];
  for (let run = 1; run <= o.runs; run++) {
    console.log(`${o.engine}: roster, run ${run} of ${o.runs}: a ${ROSTER_ROWS.toLocaleString('en-US')}-row job alone`);
    const solo = await runJob(base, headers, o.csv, {});
    seconds.push(solo.seconds);
    rowsPerSecond.push(ROSTER_ROWS / solo.seconds);
    uploads.push(solo.upload);
    last = solo.job;

    // What the job left to the side store's upkeep and the garbage collector is not the verifies'.
    await new Promise((r) => setTimeout(r, 3000));
    console.log(`${o.engine}: roster, run ${run} of ${o.runs}: verifies alone`);
    await paced(base, headers, verify, rate, rate);
    const a = await paced(base, headers, verify, rate, rate * o.seconds);
    alone.push(quantile(a.samples.sort((x, y) => x - y), 0.99));

    console.log(`${o.engine}: roster, run ${run} of ${o.runs}: the job with verifies beside it`);
    const done: { at?: number } = {};
    const [b, withTraffic] = await Promise.all([paced(base, headers, verify, rate, 0, 256, () => done.at !== undefined), runJob(base, headers, o.csv, done)]);
    beside.push(quantile(b.samples.sort((x, y) => x - y), 0.99));
    bad.push(b.bad);
    besideSeconds.push(withTraffic.seconds);
  }
  const range = (xs: number[], digits: number) => (xs.length > 1 ? ` (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})` : '');
  const ratio = median(beside) / median(alone);
  const memory = o.rss();
  return [
    `- roster job: ${ROSTER_ROWS.toLocaleString('en-US')} rows (CSV with names; 5% not on file, 10% with another's name), upload to completion ${median(seconds).toFixed(1)} s${range(seconds, 1)}, ` +
      `${median(rowsPerSecond).toFixed(0)} rows/s${range(rowsPerSecond, 0)} (goal 100,000 rows in at most 60 s: ${median(seconds) <= 60 ? 'met' : 'missed'}); the upload itself (202) ${median(uploads).toFixed(0)} ms; ` +
      `beside the paced verifies below (the workers yield to them) ${median(besideSeconds).toFixed(1)} s${range(besideSeconds, 1)}; ` +
      `last job: ${last ? `${last.counts.clear} clear, ${last.counts.consider} consider, ${last.counts.not_found} not found, ${last.units_charged} units` : '-'}`,
    `- roster job beside interactive traffic: ${verify.name} at ${rate} req/s, p99 alone ${median(alone).toFixed(1)} ms${range(alone, 1)}, with the job running ${median(beside).toFixed(1)} ms${range(beside, 1)}: ` +
      `${ratio.toFixed(2)}x (goal at most 2x: ${ratio <= 2 ? 'met' : 'missed'}); non-2xx beside the job ${bad.join(', ')}; server RSS after ${memory.now.toFixed(0)} MB (peak ${memory.peak.toFixed(0)} MB)`,
  ];
}
