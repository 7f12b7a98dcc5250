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
    const swapped = pool.swap(async () => {
      order.push('swap');
      slots = ['new'];
    }, () => slots);
    const waiting = pool.use(async (slot) => void order.push(`read on ${slot}`));
    await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual([]);
    finish();
    await Promise.all([running, swapped, waiting]);
    expect(order).toEqual(['read on old done', 'swap', 'read on new']);

    await expect(pool.swap(async () => ((slots = ['restored']), Promise.reject(new Error('reopen failed'))), () => slots)).rejects.toThrow('reopen failed');
    expect(await pool.use(async (slot) => slot)).toBe('restored');
  });

  it('when the engine is closed then a read is refused', async () => {
    const pool = readerPool(['a'], () => true);
    await expect(pool.use(async () => 1)).rejects.toThrow(/closed/);
  });
});
