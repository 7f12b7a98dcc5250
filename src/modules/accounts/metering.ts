import { randomUUID } from 'node:crypto';
import { PaymentRequiredError, QuotaExceededError } from '../../errors.js';
import type { Caller } from '../../http/auth.js';
import type { Account } from './account.js';
import type { UsageRepo } from './usage.repo.js';
import { effectivePlan, usagePeriod, type Plan } from '../../domain/plans.js';
import { freeLeases } from './free-leases.js';
import { countsKey, usageCounts, type Counts } from './usage-counts.js';

/**
 * Monthly metering. Free accounts lease their quota from the store: a lease of up to
 * FREE_LEASE_UNITS is taken atomically (the row locked), calls are served from it in memory, and
 * what is left is given back at every flush (each second) and at shutdown. So the quota can never
 * be exceeded, whatever the concurrency, and a call costs no store round trip; a crash keeps at
 * most one lease counted as used. Paid accounts are counted in memory and flushed to the store
 * every second and at shutdown: a crash loses at most the last second of their counts (and, for
 * every plan, of the per-endpoint breakdown); a clean shutdown loses nothing. A write whose
 * connection dropped may or may not have landed: each carries a token, and the next flush reads
 * back which did, so that no unit is counted twice or lost.
 */
const FREE_LEASE_UNITS = 5;
/** Tokens of usage writes are kept this long: far longer than any write stays unresolved. */
const OP_TOKENS_KEPT_MS = 24 * 3600_000;

export interface Ticket {
  account: Account;
  keyId: string;
  operation: string;
  period: string;
  /** The day (UTC) the call was admitted on. */
  day: string;
  plan: Plan;
  /** RateLimit headers for the answer: the units left after this call. */
  headers: Record<string, string>;
  settled: boolean;
}

/** Where a call falls in its plan's quota: the month and the seconds to its reset. */
interface QuotaWindow {
  plan: Plan;
  period: string;
  windowSeconds: number;
  resetSeconds: number;
  resets: Date;
}

function quotaWindow(plan: Plan, at: Date): QuotaWindow {
  const { period, starts, resets } = usagePeriod(at);
  return {
    plan,
    period,
    windowSeconds: Math.round((resets.getTime() - starts.getTime()) / 1000),
    resetSeconds: Math.max(1, Math.ceil((resets.getTime() - at.getTime()) / 1000)),
    resets,
  };
}

// draft-ietf-httpapi-ratelimit-headers-10: the policy is a quoted sf-string naming the quota q
// over window w; RateLimit names it with the remaining units r and t seconds to the reset.
const policy = (w: QuotaWindow) => `"monthly";q=${w.plan.monthlyLookups};w=${w.windowSeconds}`;

/** The monthly quota's RateLimit-Policy item for a plan at a moment (the rate's 429 names it too). */
export const monthlyPolicy = (plan: Plan, at: Date) => policy(quotaWindow(plan, at));

function rateLimitHeaders(w: QuotaWindow, remaining: number) {
  return {
    'RateLimit-Policy': policy(w),
    RateLimit: `"monthly";r=${Math.max(0, remaining)};t=${w.resetSeconds}`,
  };
}

const quotaSpent = (w: QuotaWindow) =>
  new QuotaExceededError(`monthly quota of ${w.plan.monthlyLookups} lookups is spent; it resets at ${w.resets.toISOString()}`, w.resetSeconds, rateLimitHeaders(w, 0));

export function createMeter(repo: UsageRepo, now: () => Date) {
  const counts = usageCounts();
  const leases = freeLeases();
  const quotaReads = new Map<string, { at: number; headers: Promise<Record<string, string>> }>();
  // Paid accounts: the store's total at first use, by countsKey.
  const storedUsed = new Map<string, number>();
  let flushing: Promise<void> = Promise.resolve();
  // Writes that failed and may have landed, until a flush reads back which did.
  type Unsure =
    | { token: string; kind: 'lease'; k: string }
    | { token: string; kind: 'return'; k: string; units: number }
    | { token: string; kind: 'counts'; counts: Map<string, Counts>; keys: string[] };
  let unsure: Unsure[] = [];
  let pruned = 0;
  let flushedAt: number | undefined;
  const settling = new Set<Promise<void>>();

  /** Counts of `k` not (surely) in the store yet. */
  const inMemory = (k: string) => counts.held(k, unsure.flatMap((u) => (u.kind === 'counts' ? [u.counts] : [])));

  async function paidUsed(accountId: string, period: string): Promise<number> {
    const k = countsKey(accountId, period);
    let base = storedUsed.get(k);
    if (base === undefined) {
      base = await repo.usedThisPeriod(accountId, period);
      storedUsed.set(k, base);
    }
    return base + inMemory(k).reduce((n, c) => n + c.total, 0);
  }

  /** Reads back which unsure writes landed: a landed lease's units are this instance's, a return that did not land still is, counts that did not land go again. */
  async function resolve(): Promise<void> {
    if (!unsure.length) return;
    const landed = await repo.landed(unsure.map((u) => u.token));
    for (const u of unsure) {
      const units = landed.get(u.token);
      if (u.kind === 'lease' && units) leases.give(u.k, units);
      if (u.kind === 'return' && units === undefined) leases.give(u.k, u.units);
      if (u.kind === 'counts' && units === undefined) {
        counts.merge(u.counts);
        counts.keysBack(u.keys);
      }
      // Landed: the stored totals hold them now.
      if (u.kind === 'counts' && units !== undefined) for (const k of u.counts.keys()) storedUsed.delete(k);
    }
    unsure = [];
  }

  /**
   * Runs a reading between flushes (a flush holds counts and returned units in flight, in both
   * places or in neither) after the account's lease in flight, so it is exact once calls answer.
   */
  function betweenFlushes<T>(k: string, read: () => Promise<T>): Promise<T> {
    const done = flushing.then(async () => {
      await leases.settled(k);
      await resolve();
      return read();
    });
    flushing = done.then(() => undefined, () => undefined);
    return done;
  }

  /** Units used: a free account's, the store's total less what this instance holds unused; a paid one's, with its counts in memory. */
  async function usedBy(accountId: string, plan: Plan, period: string): Promise<number> {
    if (plan.name !== 'free') return paidUsed(accountId, period);
    return (await repo.usedThisPeriod(accountId, period)) - leases.held(countsKey(accountId, period));
  }

  /** Unused leases go back to the store, so other instances see the quota left. */
  async function returnLeases() {
    const unused = leases.takeUnused();
    for (const [i, { k, n }] of unused.entries()) {
      const [account_id, period] = k.split('|');
      const token = randomUUID();
      try {
        await repo.returnQuota(account_id, period, n, token);
      } catch (err) {
        // Units not given back stay this instance's, to serve or return at the next flush: a
        // store outage must not turn them into lookups nobody made. Those of the failed write
        // wait until the next flush reads back whether it landed.
        unsure.push({ token, kind: 'return', k, units: n });
        leases.restore(unused.slice(i + 1));
        throw err;
      }
    }
  }

  async function writeCounts() {
    const { counts: taken, rows, keys } = counts.startFlush();
    const token = randomUUID();
    try {
      await repo.addUsage(rows, keys, now(), token);
      // Re-read the stored totals next time: other instances flush into them too.
      for (const k of taken.keys()) storedUsed.delete(k);
    } catch (err) {
      // Written or not: the next flush reads back which, and sends them again only if not.
      unsure.push({ token, kind: 'counts', counts: taken, keys });
      throw err;
    } finally {
      counts.endFlush();
    }
  }

  async function flush(): Promise<void> {
    const next = flushing.then(async () => {
      // Refunds of calls that already answered go in before the counts are taken.
      await Promise.all([...settling]);
      await leases.allSettled();
      await resolve();
      await returnLeases();
      await writeCounts();
      flushedAt = now().getTime();
      if (now().getTime() - pruned > OP_TOKENS_KEPT_MS) {
        await repo.pruneOps(new Date(now().getTime() - OP_TOKENS_KEPT_MS));
        pruned = now().getTime();
      }
    });
    flushing = next.catch(() => undefined);
    return next;
  }

  /** A free account's call: one unit of its lease, leasing more from the store when none is left. */
  async function admitFree(accountId: string, w: QuotaWindow): Promise<number> {
    const used = await leases.take(countsKey(accountId, w.period), async () => {
      const token = randomUUID();
      try {
        return await repo.leaseQuota(accountId, w.period, w.plan.monthlyLookups, FREE_LEASE_UNITS, token);
      } catch (err) {
        unsure.push({ token, kind: 'lease', k: countsKey(accountId, w.period) });
        throw err;
      }
    });
    if (used === undefined) throw quotaSpent(w);
    return w.plan.monthlyLookups - used;
  }

  async function admitPaid(accountId: string, w: QuotaWindow): Promise<number> {
    const used = await paidUsed(accountId, w.period);
    if (used >= w.plan.monthlyLookups) throw quotaSpent(w);
    counts.slot(countsKey(accountId, w.period)).total += 1;
    return w.plan.monthlyLookups - used - 1;
  }

  return {
    /** Admits a metered call or throws 402 (plan lacks it) or 429 (quota spent, Retry-After). */
    async admit({ account, keyId }: Caller, operation: string, options: { paidOnly?: boolean } = {}): Promise<Ticket> {
      const at = now();
      const plan = effectivePlan(account, at);
      const w = quotaWindow(plan, at);
      const { period } = w;
      if (options.paidOnly && !plan.batch) {
        const used = await betweenFlushes(countsKey(account.id, period), () => usedBy(account.id, plan, period));
        throw new PaymentRequiredError(
          `the ${plan.name} plan does not include batch verification: upgrade to starter, growth or enterprise`,
          rateLimitHeaders(w, plan.monthlyLookups - used),
        );
      }
      const remaining = plan.name === 'free' ? await admitFree(account.id, w) : await admitPaid(account.id, w);
      return { account, keyId, operation, period, day: at.toISOString().slice(0, 10), plan, headers: rateLimitHeaders(w, remaining), settled: false };
    },

    /** Counts the call when it answered 2xx, 304 or 404; otherwise gives its unit back. */
    settle(t: Ticket, status: number): Promise<void> {
      const done = settleNow(t, status);
      settling.add(done);
      return done.finally(() => settling.delete(done));
    },

    /** The month's usage: the store plus what is still in memory. */
    usage,

    /**
     * The monthly quota's RateLimit headers for an account without counting a call (a refusal by
     * the request rate names both policies), read at most once a second per account: a flood of
     * refusals must not become a flood of store reads.
     */
    quotaHeaders(account: Account): Promise<Record<string, string>> {
      const at = now();
      const plan = effectivePlan(account, at);
      const w = quotaWindow(plan, at);
      const k = countsKey(account.id, w.period);
      const hit = quotaReads.get(k);
      if (hit && at.getTime() - hit.at < 1000) return hit.headers;
      if (quotaReads.size > 10_000) for (const [key, r] of quotaReads) if (at.getTime() - r.at >= 1000) quotaReads.delete(key);
      const headers = betweenFlushes(k, () => usedBy(account.id, plan, w.period)).then((used) => rateLimitHeaders(w, plan.monthlyLookups - used));
      quotaReads.set(k, { at: at.getTime(), headers });
      headers.catch(() => quotaReads.delete(k));
      return headers;
    },

    /** A key authenticated a call (metered or not): its last_used_at is stamped at the next flush. */
    keyUsed: counts.keyUsed,

    flush,

    /** For metrics: when a flush last wrote everything it held (ms since the epoch), and the units counted but not yet stored. */
    state: () => ({ flushedAt, unitsWaiting: counts.waiting(unsure.flatMap((u) => (u.kind === 'counts' ? [u.counts] : []))) }),
  };

  async function settleNow(t: Ticket, status: number): Promise<void> {
    if (t.settled) return;
    t.settled = true;
    // A 304 confirms that the licence is unchanged: it is the lookup, so it costs what the 200 would.
    const counted = (status >= 200 && status < 300) || status === 304 || status === 404;
    const k = countsKey(t.account.id, t.period);
    const c = counts.slot(k);
    if (counted) {
      c.byEndpoint.set(t.operation, (c.byEndpoint.get(t.operation) ?? 0) + 1);
      c.byDay.set(t.day, (c.byDay.get(t.day) ?? 0) + 1);
    } else if (t.plan.name === 'free') {
      leases.give(k, 1);
    } else {
      c.total -= 1;
    }
  }

  async function usage(account: Account) {
    const at = now();
    const plan = effectivePlan(account, at);
    const { period, starts, resets } = usagePeriod(at);
    const k = countsKey(account.id, period);
    const { byEndpoint, byDay, used } = await betweenFlushes(k, async () => {
      const byEndpoint: Record<string, number> = { ...(await repo.callsByEndpoint(account.id, period)) };
      const byDay: Record<string, number> = { ...(await repo.callsByDay(account.id, starts, resets)) };
      for (const c of inMemory(k)) {
        for (const [e, n] of c.byEndpoint) byEndpoint[e] = (byEndpoint[e] ?? 0) + n;
        for (const [d, n] of c.byDay) byDay[d] = (byDay[d] ?? 0) + n;
      }
      return { byEndpoint, byDay: Object.fromEntries(Object.entries(byDay).sort()), used: await usedBy(account.id, plan, period) };
    });
    return {
      period,
      period_start: starts.toISOString(),
      resets_at: resets.toISOString(),
      plan: plan.name,
      quota: plan.monthlyLookups,
      used,
      remaining: Math.max(0, plan.monthlyLookups - used),
      by_endpoint: byEndpoint,
      by_day: byDay,
    };
  }
}
export type Meter = ReturnType<typeof createMeter>;
