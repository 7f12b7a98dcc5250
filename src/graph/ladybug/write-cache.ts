/**
 * A bounded map kept by segmented LRU, bounded by the entries' weight (1 each unless given). An entry set or read once waits in probation (the room
 * the protected segment leaves, at least a fifth); read again there, it moves to the protected
 * segment, from which only other entries read again push it back to probation. A search page or a batch reads dozens of records once
 * each: they pass through probation without evicting the records read again and again (the
 * supervising brokerages and designated brokers of every page, licences verified often), which a
 * plain LRU of the same size lost to every few seconds of searches.
 */
export class SegmentedLru<V> {
  private readonly probation = new Map<string, V>();
  private readonly protectedEntries = new Map<string, V>();
  private readonly protectedMax: number;
  private probationWeight = 0;
  private protectedWeight = 0;

  constructor(
    private readonly capacity: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {
    this.protectedMax = Math.floor(capacity * 0.8);
  }

  /** The weight held. */
  get size() {
    return this.probationWeight + this.protectedWeight;
  }

  get(key: string): V | undefined {
    const kept = this.protectedEntries.get(key);
    if (kept !== undefined) {
      this.protectedEntries.delete(key);
      this.protectedEntries.set(key, kept);
      return kept;
    }
    const waiting = this.probation.get(key);
    if (waiting === undefined) return undefined;
    const weight = this.weigh(waiting);
    this.probation.delete(key);
    this.probationWeight -= weight;
    this.protectedEntries.set(key, waiting);
    this.protectedWeight += weight;
    while (this.protectedWeight > this.protectedMax && this.protectedEntries.size > 1) {
      const [oldest, value] = this.protectedEntries.entries().next().value!;
      this.protectedEntries.delete(oldest);
      this.protectedWeight -= this.weigh(value);
      this.probation.set(oldest, value);
      this.probationWeight += this.weigh(value);
    }
    this.trim();
    return waiting;
  }

  set(key: string, value: V) {
    const kept = this.protectedEntries.get(key);
    if (kept !== undefined) {
      this.protectedEntries.set(key, value);
      this.protectedWeight += this.weigh(value) - this.weigh(kept);
      return;
    }
    const waiting = this.probation.get(key);
    if (waiting !== undefined) {
      this.probation.delete(key);
      this.probationWeight -= this.weigh(waiting);
    }
    this.probation.set(key, value);
    this.probationWeight += this.weigh(value);
    this.trim();
  }

  clear() {
    this.probation.clear();
    this.protectedEntries.clear();
    this.probationWeight = 0;
    this.protectedWeight = 0;
  }

  private trim() {
    while (this.size > this.capacity && this.probation.size) {
      const [oldest, value] = this.probation.entries().next().value!;
      this.probation.delete(oldest);
      this.probationWeight -= this.weigh(value);
    }
  }
}

/**
 * Values read from an engine whose writes all go through this process (LadybugDB), kept until
 * its next write. A value read while a write landed is used but not kept: it may predate it.
 */
export class WriteCache<V> {
  private readonly kept: SegmentedLru<V>;
  private readonly loading = new Map<string, Promise<V>>();
  private writes = 0;

  constructor(onWrite: (listener: () => void) => void, capacity: number, weigh?: (value: V) => number) {
    this.kept = new SegmentedLru(capacity, weigh);
    onWrite(() => {
      this.writes += 1;
      this.kept.clear();
      this.loading.clear();
    });
  }

  get(key: string): V | undefined {
    return this.kept.get(key);
  }

  /** Values of keys missing here, read by `load` (which leaves out unknown keys) and kept. */
  async loadMany(keys: string[], load: (keys: string[]) => Promise<Map<string, V>>): Promise<Map<string, V>> {
    const at = this.writes;
    const found = await load(keys);
    if (this.writes === at) for (const [key, value] of found) this.kept.set(key, value);
    return found;
  }

  /** The value of `key`: kept, or read by `load` once however many callers ask meanwhile. */
  fetch(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.kept.get(key);
    if (hit !== undefined) return Promise.resolve(hit);
    let pending = this.loading.get(key);
    if (pending) return pending;
    const at = this.writes;
    pending = load().then(
      (value) => {
        if (this.writes === at) {
          this.kept.set(key, value);
          this.loading.delete(key);
        }
        return value;
      },
      (err: unknown) => {
        if (this.loading.get(key) === pending) this.loading.delete(key);
        throw err;
      },
    );
    this.loading.set(key, pending);
    return pending;
  }
}
