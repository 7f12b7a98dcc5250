import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshOf } from '../../src/compose/index.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { refresh } from '../../src/ingest/refresh/refresh.js';
import { resolveFormat } from '../../src/ingest/sources/index.js';
import { ChangeFeed } from '../../src/modules/changes/changes.schemas.js';
import { files, testApp, testGraph, testStore } from '../helpers/graph.js';
import { body } from '../helpers/http.js';
import { TX_HEADER, tempFile, txRow } from '../helpers/source-files.js';

// Transfers and bulk moves over refreshes of TX snapshots written from the TREC layout (docs/changes.md).
const broker = (number: string) => txRow({ type: 'Broker Individual', number, name: `BROKER ${number}` });
const agent = (number: string, related?: string, relatedStart?: string) => txRow({ type: 'Sales Agent', number, name: `AGENT ${number}`, related, relatedStart: relatedStart && `${relatedStart} 12:00:00 AM` });
const BROKERS = ['10-B', '20-B', '30-B', '40-B', '50-B'].map(broker);
// 40-B's roster: twelve agents, eleven of whom move to 50-B together in the second snapshot.
const ROSTER = Array.from({ length: 12 }, (_, i) => `${101 + i}-SA`);

const SNAPSHOTS = {
  first: [TX_HEADER, ...BROKERS, agent('1-SA', '10-B', '01/01/2020'), agent('2-SA', '10-B', '01/01/2021'), agent('3-SA', '20-B', '01/01/2022'), ...ROSTER.map((n) => agent(n, '40-B', '01/01/2019'))],
  second: [
    TX_HEADER,
    ...BROKERS,
    agent('1-SA', '20-B', '09/20/2026'),
    agent('2-SA'),
    agent('3-SA', '20-B', '01/01/2022'),
    ...ROSTER.map((n, i) => (i < 11 ? agent(n, '50-B', '09/25/2026') : agent(n, '40-B', '01/01/2019'))),
  ],
  third: [
    TX_HEADER,
    ...BROKERS,
    agent('1-SA', '10-B', '10/15/2026'),
    agent('2-SA', '30-B', '10/10/2026'),
    agent('3-SA', '20-B', '01/01/2022'),
    ...ROSTER.map((n, i) => (i < 11 ? agent(n, '50-B', '09/25/2026') : agent(n, '40-B', '01/01/2019'))),
  ],
};

describe('transfers and bulk moves in the change feed', () => {
  let graph: GraphAdapters;
  let side: Awaited<ReturnType<typeof testStore>>;
  let app: App;
  let key: string;
  const rejectsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-transfers-'));
  const ingest = (lines: string[], snapshot: string) => {
    const file = tempFile('tx.csv', `${lines.join('\n')}\n`);
    return refresh(refreshOf(graph, files, side.clock, side.changes.log), { files: [file], format: resolveFormat(file), snapshot, rejectsDir });
  };
  let seen = 0;
  /** The events published since the last call. */
  const fresh = async () => {
    const all = body(await request(app).get('/api/v1/licensees/changes?limit=1000').set('Authorization', `Bearer ${key}`), ChangeFeed).data;
    const out = all.slice(seen);
    seen = all.length;
    return out;
  };

  beforeAll(async () => {
    ({ graph } = await testGraph());
    side = await testStore();
    app = testApp(graph, side) as unknown as App;
    key = (await side.accounts.createAccount({ email: 'transfers@example.com', plan: 'enterprise' })).key.key;
    await ingest(SNAPSHOTS.first, '2026-09-01');
    await fresh();
  });
  afterAll(async () => {
    await graph?.close();
    await side?.store.close();
  });

  it('when an agent moves to another broker then a transfer names both relationships and their events; when most of a roster moves together then one roster_moved tells it', async () => {
    await ingest(SNAPSHOTS.second, '2026-10-01');
    const events = await fresh();
    const byId = new Map(events.map((e) => [e.id, e]));
    const of = (type: string, number: string) => events.filter((e) => e.type === type && e.license_number === number);

    // 1-SA: 10-B to 20-B, the end on the day the new start gives.
    const [moved] = of('supervision_transferred', '1-SA');
    expect(moved.transfer).toMatchObject({ from: { supervisor_license_number: '10-B', effective_from: '2020-01-01', effective_to: '2026-09-20' }, to: { supervisor_license_number: '20-B', effective_from: '2026-09-20', effective_to: null }, gap_days: 0 });
    expect(byId.get(moved.transfer!.ended_event_id!)).toMatchObject({ type: 'supervision_ended', license_number: '1-SA', relationship: moved.transfer!.from });
    expect(byId.get(moved.transfer!.started_event_id!)).toMatchObject({ type: 'supervision_started', license_number: '1-SA', relationship: moved.transfer!.to });
    expect(moved.relationship).toEqual(moved.transfer!.to);
    // 2-SA left 10-B for no one: an end, no transfer.
    expect(of('supervision_ended', '2-SA')).toHaveLength(1);
    expect(of('supervision_transferred', '2-SA')).toEqual([]);

    // Eleven of 40-B's twelve went to 50-B on one date: one roster_moved on 40-B, no transfer each.
    const [bulk] = events.filter((e) => e.type === 'roster_moved');
    expect(bulk).toMatchObject({
      license_number: '40-B',
      relationship: null,
      transfer: null,
      bulk_move: { from_supervisor_license_number: '40-B', to_supervisor_license_number: '50-B', relationship_type: 'sponsoring_broker', effective_from: '2026-09-25', moved: 11, roster_before: 12, event_id: null },
    });
    expect(events.filter((e) => e.type === 'roster_moved')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'supervision_transferred').map((e) => e.license_number)).toEqual(['1-SA']);
    // Each moved agent's own events stay, and point at the move.
    for (const number of ROSTER.slice(0, 11)) {
      const own = [...of('supervision_ended', number), ...of('supervision_started', number)];
      expect(own.map((e) => [e.type, e.relationship!.supervisor_license_number]).sort()).toEqual([['supervision_ended', '40-B'], ['supervision_started', '50-B']]);
      expect(own.every((e) => e.bulk_move?.event_id === bulk.id && e.bulk_move.moved === 11)).toBe(true);
    }
    expect(events.filter((e) => e.bulk_move)).toHaveLength(23);
    expect(of('supervision_started', '1-SA')[0].bulk_move).toBeNull();
    expect(events).toHaveLength(1 + 2 + 1 + 22 + 1);
  });

  it('when an agent goes back, or finds a broker days after leaving one, then each is a transfer; the same snapshot again adds none', async () => {
    await ingest(SNAPSHOTS.third, '2026-10-20');
    const events = await fresh();
    const transfers = events.filter((e) => e.type === 'supervision_transferred').map((e) => [e.license_number, e.transfer!.from.supervisor_license_number, e.transfer!.to.supervisor_license_number, e.transfer!.gap_days]);
    expect(transfers.sort()).toEqual(
      [
        // 1-SA back from 20-B to 10-B.
        ['1-SA', '20-B', '10-B', 0],
        // 2-SA left 10-B with the last snapshot (2026-10-01) and started under 30-B on 2026-10-10.
        ['2-SA', '10-B', '30-B', 9],
      ].sort(),
    );
    const [late] = events.filter((e) => e.type === 'supervision_transferred' && e.license_number === '2-SA');
    // Its end was told with the earlier snapshot: the transfer names the start of this one only.
    expect(late.transfer).toMatchObject({ ended_event_id: null, started_event_id: events.find((e) => e.type === 'supervision_started' && e.license_number === '2-SA')!.id });
    expect(late.transfer!.from).toMatchObject({ effective_to: '2026-10-01' });
    expect(events.map((e) => e.type).sort()).toEqual(['supervision_ended', 'supervision_started', 'supervision_started', 'supervision_transferred', 'supervision_transferred']);

    await ingest(SNAPSHOTS.third, '2026-10-20');
    expect(await fresh()).toEqual([]);
  });
});
