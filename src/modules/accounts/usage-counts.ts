/** Calls counted in memory for an account and month: per operation, per day, and (paid accounts) in all. */
export interface Counts {
  byEndpoint: Map<string, number>;
  byDay: Map<string, number>;
  /** Paid accounts' calls admitted and not refunded, not yet in the store. */
  total: number;
}

/** The rows a flush writes. */
export interface UsageRows {
  byEndpoint: { account_id: string; period: string; endpoint: string; calls: number }[];
  byDay: { account_id: string; day: string; calls: number }[];
  totals: { account_id: string; period: string; used: number }[];
}

/** The key of an account's counts for a month. */
export const countsKey = (accountId: string, period: string) => `${accountId}|${period}`;

/**
 * Usage counted in memory between flushes, by account and month (`countsKey`): the counts taken
 * by a flush stay part of every reading until it has written them, and the keys used since the
 * last flush.
 */
export function usageCounts() {
  let pending = new Map<string, Counts>();
  let flushing = new Map<string, Counts>();
  let keys = new Set<string>();
  const slot = (k: string) => {
    let c = pending.get(k);
    if (!c) pending.set(k, (c = { byEndpoint: new Map(), byDay: new Map(), total: 0 }));
    return c;
  };
  return {
    /** The counts of `k` that calls add to. */
    slot,
    /** Counts of `k` not yet written: pending, being flushed, and those of `others` (writes that may not have landed). */
    held(k: string, others: Iterable<Map<string, Counts>> = []): Counts[] {
      const found = [pending.get(k), flushing.get(k)];
      for (const o of others) found.push(o.get(k));
      return found.filter((c) => c !== undefined);
    },
    /** Counts that a write did not land, back in with the pending ones. */
    merge(from: Map<string, Counts>) {
      for (const [k, c] of from) {
        const cur = slot(k);
        for (const [e, n] of c.byEndpoint) cur.byEndpoint.set(e, (cur.byEndpoint.get(e) ?? 0) + n);
        for (const [d, n] of c.byDay) cur.byDay.set(d, (cur.byDay.get(d) ?? 0) + n);
        cur.total += c.total;
      }
    },
    /** Calls counted and not yet written: pending, being flushed, and those of `others`. */
    waiting(others: Iterable<Map<string, Counts>> = []): number {
      let n = 0;
      for (const map of [pending, flushing, ...others]) for (const c of map.values()) for (const calls of c.byDay.values()) n += calls;
      return n;
    },
    /** A key authenticated a call. */
    keyUsed: (id: string) => void keys.add(id),
    keysBack: (ids: string[]) => ids.forEach((id) => keys.add(id)),
    /** Starts a flush: the pending counts move to `flushing` and come out as rows, with the keys used. */
    startFlush(): { counts: Map<string, Counts>; rows: UsageRows; keys: string[] } {
      flushing = pending;
      pending = new Map();
      const rows: UsageRows = { byEndpoint: [], byDay: [], totals: [] };
      for (const [k, c] of flushing) {
        const [account_id, period] = k.split('|');
        for (const [endpoint, calls] of c.byEndpoint) if (calls > 0) rows.byEndpoint.push({ account_id, period, endpoint, calls });
        for (const [day, calls] of c.byDay) if (calls > 0) rows.byDay.push({ account_id, day, calls });
        if (c.total) rows.totals.push({ account_id, period, used: c.total });
      }
      const used = [...keys];
      keys = new Set();
      return { counts: flushing, rows, keys: used };
    },
    /** Ends a flush, written or not (a write that may not have landed is the caller's to hold). */
    endFlush: () => void (flushing = new Map()),
  };
}
export type UsageCounts = ReturnType<typeof usageCounts>;
