import { describe, expect, it } from 'vitest';
import { readerPool } from '../../src/graph/ladybug/reader-pool.js';

// LadybugDB's read connections (src/graph/ladybug/engine.ts), with plain values for connections.

describe('the read connection pool', () => {
  it('when more reads come than connections then the rest wait for one, and each gets one of its own', async () => {
    const pool = readerPool(['a', 'b'], () => false);
    const inUse = new Set<string>();
    let most = 0;
    const reads = Array.from({ length: 6 }, () =>
      pool.use(async (slot) => {
        expect(inUse.has(slot)).toBe(false);
        inUse.add(slot);
        most = Math.max(most, inUse.size);
        await new Promise((r) => setTimeout(r, 5));
        inUse.delete(slot);
        return slot;
      }),
    );
    expect((await Promise.all(reads)).every((s) => s === 'a' || s === 'b')).toBe(true);
    expect(most).toBe(2);
  });

  it('when the database is swapped then running reads finish first, new ones wait, and afterwards take the new connections, also when the swap failed', async () => {
    let slots = ['old'];
    const pool = readerPool(slots, () => false);
    const order: string[] = [];
    let finish!: () => void;
    const running = pool.use(async (slot) => {
      await new Promise<void>((r) => (finish = r));
      order.push(`read on ${slot} done`);
    });
    const swapped = pool.exclusive('swap', async () => {
      order.push('swap');
      slots = ['new'];
    }, () => slots);
    const waiting = pool.use(async (slot) => void order.push(`read on ${slot}`));
    await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual([]);
    finish();
    await Promise.all([running, swapped, waiting]);
    expect(order).toEqual(['read on old done', 'swap', 'read on new']);

    await expect(pool.exclusive('swap', async () => ((slots = ['restored']), Promise.reject(new Error('reopen failed'))), () => slots)).rejects.toThrow('reopen failed');
    expect(await pool.use(async (slot) => slot)).toBe('restored');
  });

  it('when work runs exclusively (a checkpoint) then it waits for every running read, reads that come meanwhile wait for it, and all keep their connections', async () => {
    const pool = readerPool(['a', 'b'], () => false);
    const order: string[] = [];
    const finishes: (() => void)[] = [];
    const running = ['a', 'b'].map(() =>
      pool.use(async (slot) => {
        await new Promise<void>((r) => finishes.push(r));
        order.push(`read ${slot} done`);
      }),
    );
    let inFlightAtWork = -1;
    const checkpoint = pool.exclusive('checkpoint', async () => {
      inFlightAtWork = pool.state().inUse + pool.state().waiting;
      order.push('checkpoint');
      return 'checkpointed';
    });
    const second = pool.exclusive('checkpoint', async () => void order.push('second'));
    const later = pool.use(async (slot) => void order.push(`later read on ${slot}`));
    await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual([]);
    finishes[1]();
    await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual(['read a done']);
    finishes[0]();
    expect(await checkpoint).toBe('checkpointed');
    await Promise.all([...running, second, later]);
    expect(inFlightAtWork).toBe(0);
    // The second exclusive work came before the later read: it runs first, and the read after it.
    expect(order.slice(0, 4)).toEqual(['read a done', 'read b done', 'checkpoint', 'second']);
    expect(order[4]).toMatch(/^later read on [ab]$/);
    expect(pool.state()).toEqual({ max: 2, inUse: 0, idle: 2, waiting: 0 });
  });

  it('when work holds the reads then its hold is timed from the gate closing, the wait for running reads included, by kind', async () => {
    const pool = readerPool(['a'], () => false);
    expect(pool.holds()).toEqual({});
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const running = pool.use(() => sleep(40));
    await pool.exclusive('checkpoint', () => sleep(30));
    await running;
    await pool.exclusive('checkpoint', async () => undefined);
    await expect(pool.exclusive('swap', () => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
    const { checkpoint, swap, close } = pool.holds();
    expect(close).toBeUndefined();
    expect(swap).toMatchObject({ holds: 1 });
    expect(checkpoint).toMatchObject({ holds: 2 });
    // The first hold waited for the running read (40 ms) and ran its work (30 ms); timers may fire a little early.
    expect(checkpoint!.longest_seconds).toBeGreaterThanOrEqual(0.06);
    expect(checkpoint!.held_seconds).toBeGreaterThanOrEqual(checkpoint!.longest_seconds);
  });

  it('when the engine is closed then a read is refused', async () => {
    const pool = readerPool(['a'], () => true);
    await expect(pool.use(async () => 1)).rejects.toThrow(/closed/);
  });
});
