import { describe, expect, it } from 'vitest';
import { freeLeases } from '../../src/modules/accounts/free-leases.js';
import { countsKey, usageCounts } from '../../src/modules/accounts/usage-counts.js';

// The meter's parts with state of their own, without a store (test/store/metering.test.ts runs
// the meter over one).

describe('free accounts\' leases', () => {
  it('when calls arrive together then one lease is taken for them all, and each call is told the units used with it', async () => {
    const leases = freeLeases();
    let asked = 0;
    const lease = async () => ((asked += 1), { taken: 3, used: 10 });
    const used = await Promise.all([leases.take('a', lease), leases.take('a', lease), leases.take('a', lease)]);
    expect(asked).toBe(1);
    expect(used.sort((a, b) => a! - b!)).toEqual([8, 9, 10]);
    expect(leases.held('a')).toBe(0);
  });

  it('when the store has no units left then take says so, and a unit given back is served without a lease', async () => {
    const leases = freeLeases();
    expect(await leases.take('a', async () => ({ taken: 0, used: 100 }))).toBeUndefined();
    leases.give('a', 1);
    expect(await leases.take('a', async () => Promise.reject(new Error('not asked')))).toBeDefined();
  });

  it('when a lease fails then the calls waiting on it fail, and the next call leases again', async () => {
    const leases = freeLeases();
    const failing = leases.take('a', async () => Promise.reject(new Error('store down')));
    const waiting = leases.take('a', async () => ({ taken: 1, used: 1 }));
    await expect(failing).rejects.toThrow('store down');
    await expect(waiting).rejects.toThrow('store down');
    expect(await leases.take('a', async () => ({ taken: 2, used: 5 }))).toBe(4);
  });

  it('when unused leases are handed over then none is held, and those restored are held again with their base', async () => {
    const leases = freeLeases();
    await leases.take('a', async () => ({ taken: 5, used: 5 }));
    await leases.take('b', async () => ({ taken: 1, used: 1 }));
    const unused = leases.takeUnused();
    expect(unused).toEqual([{ k: 'a', n: 4, base: 5 }]);
    expect(leases.held('a')).toBe(0);
    leases.restore(unused);
    expect(leases.held('a')).toBe(4);
    expect(await leases.take('a', async () => Promise.reject(new Error('not asked')))).toBe(2);
  });
});

describe('usage counted in memory', () => {
  it('when a flush starts then its counts come out as rows and stay part of every reading until it ends', () => {
    const counts = usageCounts();
    const k = countsKey('acct', '2026-11');
    const c = counts.slot(k);
    c.byEndpoint.set('verifyLicense', 2);
    c.byDay.set('2026-11-27', 2);
    c.total = 2;
    counts.keyUsed('key-1');
    const { rows, keys, counts: taken } = counts.startFlush();
    expect(rows).toEqual({
      byEndpoint: [{ account_id: 'acct', period: '2026-11', endpoint: 'verifyLicense', calls: 2 }],
      byDay: [{ account_id: 'acct', day: '2026-11-27', calls: 2 }],
      totals: [{ account_id: 'acct', period: '2026-11', used: 2 }],
    });
    expect(keys).toEqual(['key-1']);
    counts.slot(k).total += 1;
    expect(counts.held(k).map((h) => h.total)).toEqual([1, 2]);
    counts.endFlush();
    expect(counts.held(k).map((h) => h.total)).toEqual([1]);
    // A write that did not land: its counts come back with the pending ones.
    counts.merge(taken);
    expect(counts.held(k).map((h) => h.total)).toEqual([3]);
    expect(counts.held(k)[0].byEndpoint.get('verifyLicense')).toBe(2);
    expect(counts.startFlush().keys).toEqual([]);
  });
});
