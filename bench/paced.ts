// Latency at a fixed rate over loopback, for the benches.
import http from 'node:http';

export const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : Number.NaN);
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

export interface Scenario {
  name: string;
  method?: 'GET' | 'POST';
  /** Its latency run's rate as a share of the others' (1 when absent). */
  rateFactor?: number;
  /** A new request target (and body) per request. */
  next: () => { path: string; body?: string };
}

/**
 * Latency at a fixed rate: requests sent on an even schedule, one every 1/rate s whatever the
 * answers (open loop), each timed from when it was due, so that queueing in the server shows and
 * a slow answer holds up no later request. autocannon's rate limit does not do this: each
 * connection sends its share of a second back to back at the start of the second, which measures
 * bursts of eight concurrent requests rather than a steady rate.
 */
export async function paced(base: string, headers: Record<string, string>, s: Scenario, rate: number, count: number, maxSockets = 256, until?: () => boolean) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const { hostname, port } = new URL(base);
  const samples: number[] = [];
  // Every answer's time, whatever its status, and the ones shed (503).
  const all: number[] = [];
  let shed = 0;
  let bad = 0;
  // The answers that were not 200, by status ('error': no answer).
  const others: Record<string, number> = {};
  const answers: Promise<void>[] = [];
  const started = performance.now();
  // As many requests at every rate (a slower run lasts longer): a p99 of 100 requests is the
  // second slowest, not a percentile. With `until`, requests go on until it says so.
  for (let i = 0; until ? !until() : i < count; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const n = s.next();
    // A timer can fire up to a millisecond early (libuv's clock is the loop's, read before the
    // wait): a request sent before it was due is timed from when it was sent, one sent late from
    // when it was due.
    const from = Math.min(due, performance.now());
    answers.push(
      new Promise<void>((resolve) => {
        const req = http.request({ host: hostname, port, path: n.path, method: s.method ?? 'GET', agent, headers: { ...headers, 'content-type': 'application/json' } }, (res) => {
          res.resume();
          res.on('end', () => {
            const took = performance.now() - from;
            all.push(took);
            if (res.statusCode === 200) samples.push(took);
            else {
              bad += 1;
              others[res.statusCode!] = (others[res.statusCode!] ?? 0) + 1;
            }
            if (res.statusCode === 503) shed += 1;
            resolve();
          });
        });
        req.on('error', () => {
          bad += 1;
          others.error = (others.error ?? 0) + 1;
          resolve();
        });
        req.end(n.body);
      }),
    );
  }
  const sent = performance.now();
  await Promise.all(answers);
  agent.destroy();
  return { samples, bad, others, all, shed, sent };
}

