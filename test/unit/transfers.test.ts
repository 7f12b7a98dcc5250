import { describe, expect, it } from 'vitest';
import type { Row } from '../../src/graph/graph-port.js';
import { TRANSFER_WINDOW_DAYS } from '../../src/domain/changes.js';
import { findTransfers, type TransfersInput } from '../../src/ingest/refresh/transfers.js';

// The edge cases of docs/changes.md's *Transfers*, on the pure rule the refresh applies.
const link = (affiliate: string, supervisor: string, from: string, to: string | null = null, type = 'sponsoring_broker', role = 'salesperson'): Row => ({
  affiliate_id: affiliate,
  supervisor_id: supervisor,
  relationship_type: type,
  affiliate_role: role,
  effective_from: from,
  effective_to: to,
});
const run = (o: Partial<TransfersInput>) =>
  findTransfers({ started: [], ended: [], endedBefore: new Map(), keptOpen: () => false, rosterBefore: () => 100, ...o });
const pairs = (r: ReturnType<typeof run>) => r.single.map((t) => [t.from.affiliate_id, t.from.supervisor_id, t.to.supervisor_id, t.to.relationship_type, t.gap_days, t.ended, t.started]);

describe('transfers found among a run\'s supervision changes', () => {
  it('when an agent holds several relationship types then only a type that ends under one supervisor and starts under another is a transfer', () => {
    const found = run({
      ended: [link('a', 'A', '2020-01-01', '2026-05-01'), link('a', 'X', '2020-01-01', '2026-05-01', 'main_office', 'branch')],
      started: [link('a', 'B', '2026-05-01', null, 'designated_broker', 'brokerage'), link('a', 'C', '2026-05-01')],
    });
    expect(pairs(found)).toEqual([['a', 'A', 'C', 'sponsoring_broker', 0, 0, 1]]);
  });

  it('when a second sponsor starts and the first has no end then it is no transfer; nor is a role changed under the same supervisor', () => {
    expect(pairs(run({ started: [link('a', 'B', '2026-05-01')], keptOpen: () => true, endedBefore: new Map([['a|sponsoring_broker', link('a', 'Z', '2019-01-01', '2026-04-20')]]) }))).toEqual([]);
    expect(pairs(run({ ended: [link('a', 'A', '2020-01-01', '2026-05-01')], started: [link('a', 'A', '2026-05-01', null, 'sponsoring_broker', 'broker_associate')] }))).toEqual([]);
  });

  it('when the end came with an earlier snapshot then a start within the window is a transfer counted from that end, and one past it, or under the same supervisor, is not', () => {
    const before = (to: string, supervisor = 'A') => new Map([['a|sponsoring_broker', link('a', supervisor, '2020-01-01', to)]]);
    expect(pairs(run({ started: [link('a', 'B', '2026-05-11')], endedBefore: before('2026-05-01') }))).toEqual([['a', 'A', 'B', 'sponsoring_broker', 10, null, 0]]);
    const edge = new Date(Date.parse('2026-05-01') + TRANSFER_WINDOW_DAYS * 86_400_000).toISOString().slice(0, 10);
    expect(pairs(run({ started: [link('a', 'B', edge)], endedBefore: before('2026-05-01') }))).toHaveLength(1);
    const past = new Date(Date.parse(edge) + 86_400_000).toISOString().slice(0, 10);
    expect(pairs(run({ started: [link('a', 'B', past)], endedBefore: before('2026-05-01') }))).toEqual([]);
    expect(pairs(run({ started: [link('a', 'A', '2026-05-11')], endedBefore: before('2026-05-01') }))).toEqual([]);
    // A start dated before the old end: an overlap the source never published as one move.
    expect(pairs(run({ started: [link('a', 'B', '2026-04-01')], endedBefore: before('2026-05-01') }))).toEqual([]);
  });

  it('when a move ends and starts with days between them in one snapshot then the gap is told; overlapping dates give a negative gap', () => {
    expect(pairs(run({ ended: [link('a', 'A', '2020-01-01', '2026-05-01')], started: [link('a', 'B', '2026-05-15')] }))).toEqual([['a', 'A', 'B', 'sponsoring_broker', 14, 0, 0]]);
    expect(pairs(run({ ended: [link('a', 'A', '2020-01-01', '2026-05-10')], started: [link('a', 'B', '2026-05-01')] }))[0][4]).toBe(-9);
  });

  it('when ten or more of a roster move to one supervisor on one date and they are more than half of it then they are one bulk move; fewer, or a smaller share, stay transfers', () => {
    const moving = (n: number) => ({
      ended: Array.from({ length: n }, (_, i) => link(`a${i}`, 'A', '2020-01-01', '2026-05-01')),
      started: Array.from({ length: n }, (_, i) => link(`a${i}`, 'B', '2026-05-01')),
    });
    const bulk = run({ ...moving(10), rosterBefore: (s) => (s === 'A' ? 19 : 0) });
    expect(bulk.single).toEqual([]);
    expect(bulk.bulk.map((b) => [b.from, b.to, b.effective_from, b.transfers.length, b.roster_before])).toEqual([['A', 'B', '2026-05-01', 10, 19]]);
    expect(run({ ...moving(9), rosterBefore: () => 9 }).bulk).toEqual([]);
    expect(run({ ...moving(10), rosterBefore: () => 20 }).single).toHaveLength(10);
  });
});
