/** A lease of quota units as the store granted it: `taken` units, `used` the account's total after it (the lease included). */
export interface Lease {
  taken: number;
  used: number;
}

/** An unused lease handed back: the units and the store's total as of the lease. */
export interface Unused {
  k: string;
  n: number;
  base: number | undefined;
}

/**
 * Free accounts' quota units leased from the store and not yet used, by account and month (`k`).
 * One lease is in flight per `k` at a time: concurrent calls wait for it rather than each taking
 * one. `base` is the store's total as of the last lease, the units leased included.
 */
export function freeLeases() {
  const held = new Map<string, number>();
  const base = new Map<string, number>();
  const leasing = new Map<string, Promise<void>>();
  const give = (k: string, n: number) => void held.set(k, (held.get(k) ?? 0) + n);
  return {
    /**
     * Takes one unit, leasing with `lease` while none is held; returns the units the account has
     * used with it, or undefined when the store had none left to lease.
     */
    async take(k: string, lease: () => Promise<Lease>): Promise<number | undefined> {
      while (!held.get(k)) {
        const inFlight = leasing.get(k);
        if (inFlight) {
          await inFlight;
          continue;
        }
        let got = 0;
        const leased = lease().then((l) => {
          got = l.taken;
          give(k, l.taken);
          base.set(k, l.used);
        });
        leasing.set(k, leased);
        try {
          await leased;
        } finally {
          leasing.delete(k);
        }
        if (!got && !held.get(k)) return undefined;
      }
      held.set(k, held.get(k)! - 1);
      return base.get(k)! - held.get(k)!;
    },
    /** Units back to `k`: a call refunded, a lease that landed after all, a return that did not. */
    give,
    /** The units `k` holds unused. */
    held: (k: string) => held.get(k) ?? 0,
    /** Settles when the lease of `k` in flight, if any, has (whether it failed or not). */
    settled: async (k: string) => void (await leasing.get(k)?.catch(() => undefined)),
    /** Settles when every lease in flight has. */
    allSettled: async () => void (await Promise.all([...leasing.values()].map((l) => l.catch(() => undefined)))),
    /** Hands over every unused lease, to go back to the store; none is held after. */
    takeUnused(): Unused[] {
      const unused = [...held].filter(([, n]) => n > 0).map(([k, n]) => ({ k, n, base: base.get(k) }));
      held.clear();
      base.clear();
      return unused;
    },
    /** Keeps leases that could not go back, as they were. */
    restore(leases: Unused[]) {
      for (const { k, n, base: b } of leases) {
        give(k, n);
        if (!base.has(k) && b !== undefined) base.set(k, b);
      }
    },
  };
}
export type FreeLeases = ReturnType<typeof freeLeases>;
