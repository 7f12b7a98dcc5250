import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { neo4jReaders } from '../../src/graph/neo4j/readers.js';

// The reader heartbeat of src/graph/neo4j/readers.ts with a graph of plain values: a beat is a write
// that lands when the test says so, a peek a read of the published generation.

function graph() {
  let published = 1;
  const beats: { oldest: unknown; land: () => void }[] = [];
  let peeks = 0;
  const write = vi.fn((query: string, params: Record<string, unknown>) => {
    if (!query.includes('MERGE (r:GraphReader')) return Promise.resolve([]);
    const g = published;
    return new Promise<Record<string, unknown>[]>((done) => beats.push({ oldest: params.oldest, land: () => done([{ g }]) }));
  });
  const read = vi.fn(() => {
    peeks++;
    return Promise.resolve([{ g: published }]);
  });
  return {
    readers: neo4jReaders(write, read, 'test-pin'),
    publish: () => (published += 1),
    /** Lands every beat sent so far. */
    land: async () => {
      for (const b of beats.splice(0)) b.land();
      await vi.advanceTimersByTimeAsync(0);
    },
    beatsWaiting: () => beats.length,
    peeks: () => peeks,
    reported: () => beats.map((b) => b.oldest),
  };
}

const settled = async <T>(p: Promise<T>) => {
  let out: { value: T } | undefined;
  void p.then((value) => (out = { value }));
  await vi.advanceTimersByTimeAsync(0);
  return out;
};

describe('the published generation a Neo4j request reads', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('when the first beat has not landed then a request waits for it: a reader reports before it reads', async () => {
    const g = graph();
    const first = g.readers.published();
    expect(await settled(first)).toBeUndefined();
    expect(g.peeks()).toBe(0);
    await g.land();
    expect(await first).toBe(1);
  });

  it('when beats fall behind (a refresh commits) then a request reads the published generation instead of waiting for a beat', async () => {
    const g = graph();
    const first = g.readers.published();
    await g.land();
    await first;
    // Beats go on every second but none lands: the commits ahead of them hold them.
    g.publish();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(g.beatsWaiting()).toBeGreaterThan(0);
    expect(await settled(g.readers.published())).toEqual({ value: 2 });
    expect(g.peeks()).toBe(1);
    // Read again within two beats' time, it asks nothing.
    expect(await settled(g.readers.published())).toEqual({ value: 2 });
    expect(g.peeks()).toBe(1);
  });

  it('when no beat has landed for ten seconds then a request waits for one: collection may stop counting a silent reader', async () => {
    const g = graph();
    const first = g.readers.published();
    await g.land();
    await first;
    await vi.advanceTimersByTimeAsync(11_000);
    const late = g.readers.published();
    expect(await settled(late)).toBeUndefined();
    expect(g.peeks()).toBe(0);
    await g.land();
    expect(await late).toBe(1);
  });

  it('when this process has written then the next request reads the generation again, even within two beats', async () => {
    const g = graph();
    const first = g.readers.published();
    await g.land();
    await first;
    g.publish();
    g.readers.forget();
    expect(await settled(g.readers.published())).toEqual({ value: 2 });
    expect(g.peeks()).toBe(1);
  });

  it('when a request holds an older generation then the next beat reports it, whatever a read has seen since', async () => {
    const g = graph();
    const first = g.readers.published();
    await g.land();
    await first;
    let finish!: () => void;
    const running = g.readers.holding(1, () => new Promise<void>((done) => (finish = done)));
    g.publish();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(await settled(g.readers.published())).toEqual({ value: 2 });
    await g.land();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(g.reported().at(-1)).toBe(1);
    finish();
    await running;
    await g.land();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(g.reported().at(-1)).toBe(2);
  });
});
