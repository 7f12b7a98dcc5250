import { describe, expect, it } from 'vitest';
import { SegmentedLru } from '../../src/graph/ladybug/write-cache.js';

const fill = (cache: SegmentedLru<number>, prefix: string, n: number) => {
  for (let i = 0; i < n; i++) cache.set(`${prefix}${i}`, i);
};

describe('the record cache (segmented LRU)', () => {
  it('when entries read again meet a scan of once-read entries larger than the cache then they stay and the scan passes through', () => {
    const cache = new SegmentedLru<number>(100);
    fill(cache, 'hot', 50);
    for (let i = 0; i < 50; i++) expect(cache.get(`hot${i}`)).toBe(i);
    fill(cache, 'scan', 1000);
    expect(cache.size).toBe(100);
    for (let i = 0; i < 50; i++) expect(cache.get(`hot${i}`)).toBe(i);
    // The probation segment holds the scan's last entries, the oldest gone.
    expect(cache.get('scan999')).toBe(999);
    expect(cache.get('scan0')).toBeUndefined();
  });

  it('when more entries are read again than the protected segment holds then the least recently read go back to probation, then out', () => {
    const cache = new SegmentedLru<number>(10); // at most 8 protected; probation has the rest
    fill(cache, 'k', 10);
    for (let i = 0; i < 8; i++) cache.get(`k${i}`);
    cache.get('k8'); // a ninth read again: k0, the least recently read, goes back to probation
    cache.set('new', 0); // over capacity: probation's oldest (k9) goes
    expect(cache.size).toBe(10);
    expect(cache.get('k9')).toBeUndefined();
    for (let i = 0; i <= 8; i++) expect(cache.get(`k${i}`)).toBe(i);
    expect(cache.get('new')).toBe(0);
  });

  it('when an entry is set again then the new value is read, and clear empties both segments', () => {
    const cache = new SegmentedLru<number>(10);
    cache.set('a', 1);
    cache.set('a', 2);
    expect(cache.get('a')).toBe(2);
    cache.set('a', 3); // now protected
    expect(cache.get('a')).toBe(3);
    cache.set('b', 1);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.get('a')).toBeUndefined();
  });
});
