import { randomUUID } from 'node:crypto';
import type { ChangeEvent } from '../../domain/changes.js';
import { daysBetween } from '../../domain/dates.js';
import { DEFAULT_EXPIRY_DAYS, expiryMark, localDate } from '../../domain/expiries.js';
import type { GraphReads } from '../../graph/reads-port.js';
import type { ChangesRepo, WatchedAt } from './changes.repo.js';

/** Watched licences read and told per round: what a pass holds at once. */
const PAGE = 2_000;
/** A pass holder not heard from for this long has died: another process takes the pass. */
const STALE_MS = 10 * 60_000;

type Log = { error(obj: object, msg: string): void };

/**
 * The expiry pass (docs/changes.md, *Expiries ahead*): for every watched licence, the nearest of its
 * watcher's marks (days before the expiration date, in the state's local date) it has reached is told
 * once as `license_expiring`, its key the licence, the expiration date and the mark. Run often (each
 * hour), so each state's day is seen soon after its midnight; a pass missed tells the mark passed
 * meanwhile, and one run twice tells nothing twice. One process at a time holds it (the side store's
 * lease).
 */
export function createExpiryPass(deps: { repo: ChangesRepo; reads: () => Promise<GraphReads>; now: () => Date; log: Log; page?: number }) {
  const { repo, page = PAGE } = deps;
  const holder = randomUUID();
  return {
    /** Runs the pass unless another process holds it; the alerts it wrote. */
    async run(): Promise<number> {
      if (!(await repo.claimExpiryPass(holder, deps.now(), STALE_MS))) return 0;
      let written = 0;
      try {
        const reads = await deps.reads();
        for (const state of await repo.watchedStates()) {
          for (let after: WatchedAt | null = null; ; ) {
            const rows = await repo.watchedWithDays(state, after, page);
            if (!rows.length) break;
            after = rows[rows.length - 1];
            const now = deps.now();
            const today = localDate(state, now);
            const records = new Map((await reads.byIds([...new Set(rows.map((r) => r.credential_id))])).map((r) => [r.id, r]));
            const events: ChangeEvent[] = [];
            for (const w of rows) {
              const r = records.get(w.credential_id);
              if (!r?.expiration_date) continue;
              const daysLeft = daysBetween(today, r.expiration_date);
              const mark = expiryMark(daysLeft, w.expiry_days ?? DEFAULT_EXPIRY_DAYS);
              if (mark === undefined) continue;
              events.push({
                type: 'license_expiring',
                state,
                license_number: r.license_number,
                license_credential_id: r.id,
                old: null,
                new: { expiration_date: r.expiration_date, days_before: mark, days_left: daysLeft, local_date: today, status: r.status, status_normalized: r.status_normalized },
                relationship: null,
                account_id: w.account_id,
                alert: { key: `license_expiring:${r.id}:${r.expiration_date}:${mark}`, path: [], cause_seqs: [] },
                snapshot_date: r.snapshot_date ?? today,
                detected_at: now.toISOString(),
                source: r.source ?? 'expiry-pass',
              });
            }
            written += await repo.publishAlerts({ source: 'expiry-pass', state, snapshot_date: today }, events);
            await repo.beatExpiryPass(holder, deps.now());
          }
        }
      } finally {
        await repo.finishExpiryPass(holder, deps.now()).catch((err) => deps.log.error({ err }, 'the expiry pass could not be let go: another process takes it when it goes stale'));
      }
      return written;
    },
  };
}
export type ExpiryPass = ReturnType<typeof createExpiryPass>;
