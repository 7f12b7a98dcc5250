import type { AppDeps } from '../app.js';
import type { JobRunner } from '../modules/jobs/jobs.runner.js';
import type { Log, SideServices } from './side.js';

const USAGE_FLUSH_MS = 1000;
const PRUNE_MS = 3600_000;
/** The expiry pass: each hour, so each state's new day is seen within the hour (docs/changes.md). */
const EXPIRY_PASS_MS = 3600_000;

/**
 * A server's background work: webhook deliveries, roster job lanes, the meter's flush, and the
 * hourly expiry pass and prunes (expired e-mail links and sessions, past rate-limit windows, old change events,
 * deliveries, verification records and jobs; PGlite runs no autovacuum, so the log's statistics
 * are refreshed with them).
 */
export function createWorkers(side: SideServices, services: Pick<AppDeps, 'jobs' | 'dashboard'> & { jobRunner: JobRunner }, log: Log) {
  let timers: NodeJS.Timeout[] = [];
  const prunes: [string, () => Promise<unknown>][] = [
    ['dashboard', services.dashboard.prune],
    ['change events', side.changes.prune],
    ['webhook delivery log', side.pruneDeliveries],
    ['verification records', side.verifications.prune],
    ['verification jobs', services.jobs.prune],
    ...(side.fairShare ? [['rate limit windows', side.fairShare.prune] as [string, () => Promise<unknown>]] : []),
  ];
  const prune = () => {
    for (const [what, run] of prunes) run().catch((err) => log.error({ err }, `${what} prune failed`));
  };
  // One pass at a time in this process; stop waits for the one running.
  let passing: Promise<unknown> | undefined;
  const expiries = () => {
    passing ??= side.expiries?.run()
      .catch((err) => log.error({ err }, 'expiry pass failed: the next one tells what it missed'))
      .finally(() => (passing = undefined));
  };
  return {
    async start() {
      side.dispatcher.start();
      await services.jobRunner.start();
      prune();
      expiries();
      timers = [
        setInterval(expiries, EXPIRY_PASS_MS),
        setInterval(() => side.meter.flush().catch((err) => log.error({ err }, 'usage flush failed')), USAGE_FLUSH_MS),
        setInterval(prune, PRUNE_MS),
      ];
      for (const t of timers) t.unref();
    },
    /** Chunks in hand are committed (or given back) and usage flushed before the stores close; false when the last flush failed. */
    async stop(): Promise<boolean> {
      for (const t of timers.splice(0)) clearInterval(t);
      await services.jobRunner.stop();
      await passing;
      await side.dispatcher.stop();
      try {
        await side.meter.flush();
        return true;
      } catch (err) {
        log.error({ err }, 'final usage flush failed');
        return false;
      }
    },
  };
}
export type Workers = ReturnType<typeof createWorkers>;
