/**
 * A bounded map kept by segmented LRU. An entry set or read once waits in probation (the room
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

  constructor(private readonly capacity: number) {
    this.protectedMax = Math.floor(capacity * 0.8);
  }

  get size() {
    return this.probation.size + this.protectedEntries.size;
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
    this.probation.delete(key);
    this.protectedEntries.set(key, waiting);
    if (this.protectedEntries.size > this.protectedMax) {
      const [oldest, value] = this.protectedEntries.entries().next().value!;
      this.protectedEntries.delete(oldest);
      this.probation.set(oldest, value);
      this.trim();
    }
    return waiting;
  }

  set(key: string, value: V) {
    if (this.protectedEntries.has(key)) {
      this.protectedEntries.set(key, value);
      return;
    }
    this.probation.delete(key);
    this.probation.set(key, value);
    this.trim();
  }

  clear() {
    this.probation.clear();
    this.protectedEntries.clear();
  }

  private trim() {
    while (this.size > this.capacity) this.probation.delete(this.probation.keys().next().value!);
  }
}
