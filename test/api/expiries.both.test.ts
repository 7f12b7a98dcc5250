import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compose, refreshOf } from '../../src/compose/index.js';
import { clockOf } from '../../src/domain/clock.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { refresh } from '../../src/ingest/refresh/refresh.js';
import { resolveFormat } from '../../src/ingest/sources/index.js';
import { createChangesRepo } from '../../src/modules/changes/changes.repo.js';
import { ChangeFeed } from '../../src/modules/changes/changes.schemas.js';
import { createExpiryPass } from '../../src/modules/changes/expiries.js';
import { createWebhooksRepo } from '../../src/modules/webhooks/webhooks.repo.js';
import { ExpiryAlerts, WatchResult } from '../../src/modules/watchlist/watchlist.schemas.js';
import { testConfig } from '../helpers/config.js';
import { files, testApp, testGraph, testStore } from '../helpers/graph.js';
import { body, validationErrors } from '../helpers/http.js';
import { TX_HEADER, tempFile, txRow } from '../helpers/source-files.js';

// Expiries ahead and renewals after a lapse (docs/changes.md, *Expiries ahead*), with the clock moved.
const agent = (number: string, o: { status?: string; expires: string }) => txRow({ type: 'Sales Agent', number, name: `AGENT ${number.replace(/\W/g, '')}`, ...o });
const SNAPSHOTS = {
  first: [TX_HEADER, agent('1-SA', { expires: '01/31/2027' }), agent('3-SA', { status: 'Expired', expires: '01/31/2026' })],
  second: [TX_HEADER, agent('1-SA', { expires: '01/31/2027' }), agent('3-SA', { expires: '01/31/2028' })],
};

describe('expiries ahead and renewals after a lapse', () => {
  let graph: GraphAdapters;
  let side: Awaited<ReturnType<typeof testStore>>;
  let app: App;
  let now = new Date('2026-10-01T12:00:00Z');
  const clock = clockOf(() => now);
  const auth: Record<'a' | 'b', Record<string, string>> = { a: {}, b: {} };
  const rejectsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-expiries-'));
  const ingest = (lines: string[], snapshot: string) => {
    const file = tempFile('tx.csv', `${lines.join('\n')}\n`);
    return refresh(refreshOf(graph, files, clock, side.changes.log), { files: [file], format: resolveFormat(file), snapshot, rejectsDir });
  };
  const alerts = async (who: 'a' | 'b', type: string) => body(await request(app).get(`/api/v1/licensees/changes?limit=1000&types=${type}`).set(auth[who]), ChangeFeed).data;
  const marks = async (who: 'a' | 'b') => (await alerts(who, 'license_expiring')).map((e) => `${e.license_number}:${(e.new as { days_before: number }).days_before}`);
  /** Runs the pass at `at` (UTC). */
  const passAt = async (at: string, s = side) => {
    now = new Date(at);
    return s.expiries!.run();
  };

  beforeAll(async () => {
    ({ graph } = await testGraph());
    side = await testStore({}, undefined, clock, { graph });
    app = testApp(graph, side) as unknown as App;
    for (const who of ['a', 'b'] as const) {
      const key = (await side.accounts.createAccount({ email: `${who}-expiries@example.com`, plan: 'enterprise' })).key.key;
      auth[who] = { Authorization: `Bearer ${key}` };
    }
    await ingest(SNAPSHOTS.first, '2026-10-01');
    const watch = (who: 'a' | 'b', numbers: string[]) => request(app).post('/api/v1/watchlist').set(auth[who]).send({ items: numbers.map((license_number) => ({ state: 'TX', license_number })) });
    body(await watch('a', ['1-SA', '3-SA']), WatchResult);
    body(await watch('b', ['1-SA']), WatchResult);
  });
  afterAll(async () => {
    await graph?.close();
    await side?.store.close();
  });

  it('when an account chooses its days then they are kept, largest first; bad days are a 422 naming them', async () => {
    expect(body(await request(app).get('/api/v1/watchlist/expiry-alerts').set(auth.b), ExpiryAlerts)).toEqual({ days: [90, 60, 30, 7, 0], default: true });
    expect(body(await request(app).put('/api/v1/watchlist/expiry-alerts').set(auth.a).send({ days: [0, 90, 30] }), ExpiryAlerts)).toEqual({ days: [90, 30, 0], default: false });
    expect(body(await request(app).get('/api/v1/watchlist/expiry-alerts').set(auth.a), ExpiryAlerts)).toEqual({ days: [90, 30, 0], default: false });
    for (const days of [[], [400], [-1], [30, 30], [1.5]]) {
      expect(validationErrors(await request(app).put('/api/v1/watchlist/expiry-alerts').set(auth.a).send({ days }))[0].loc.slice(0, 2), JSON.stringify(days)).toEqual(['body', 'days']);
    }
  });

  it('when the clock crosses 90, 30 and 0 days before an expiration then each watcher is told each of its marks once, in the state\'s local date, none again after a restart', async () => {
    // 2027-01-31 less 90 days is 2026-11-02; at 05:00 UTC it is still 2026-11-01 in Texas.
    expect(await passAt('2026-11-02T05:00:00Z')).toBe(0);
    expect(await passAt('2026-11-02T07:00:00Z')).toBe(2);
    expect(await passAt('2026-11-02T08:00:00Z')).toBe(0);
    expect(await marks('a')).toEqual(['1-SA:90']);
    expect(await marks('b')).toEqual(['1-SA:90']);
    // 61 days left: a has no 60 mark, b's default has; 29 left: both reach 30, b's 60 told no more once passed.
    expect(await passAt('2026-12-01T18:00:00Z')).toBe(0);
    expect(await passAt('2027-01-02T18:00:00Z')).toBe(2);
    expect(await marks('b')).toEqual(['1-SA:90', '1-SA:30']);

    // A restart: a new process over the same store tells nothing twice.
    const restarted = await compose(testConfig(), { store: side.store, clock, graph }).side();
    expect(await passAt('2027-01-02T19:00:00Z', restarted)).toBe(0);
    // The passes on the expiration day and the two after were missed: the next tells the 0 mark.
    expect(await Promise.all([passAt('2027-02-03T18:00:00Z', restarted), side.expiries!.run()]).then(([x, y]) => x + y)).toBe(2);
    expect(await passAt('2027-02-15T18:00:00Z')).toBe(0);

    const [zero] = (await alerts('a', 'license_expiring')).filter((e) => (e.new as { days_before: number }).days_before === 0);
    expect(zero).toMatchObject({
      license_number: '1-SA',
      new: { expiration_date: '2027-01-31', days_before: 0, days_left: -3, local_date: '2027-02-03' },
      alert: { path: [], cause_event_ids: [] },
    });
    expect(await marks('a')).toEqual(['1-SA:90', '1-SA:30', '1-SA:0']);
    expect(await marks('b')).toEqual(['1-SA:90', '1-SA:30', '1-SA:0']);
  });

  it('when a lapsed licence is current again in a refresh then its watchers are told renewed_after_lapse, once', async () => {
    now = new Date('2027-02-16T12:00:00Z');
    await ingest(SNAPSHOTS.second, '2027-02-16');
    const [renewed, ...more] = await alerts('a', 'renewed_after_lapse');
    expect(more).toEqual([]);
    expect(renewed).toMatchObject({
      license_number: '3-SA',
      old: { status: 'Expired', status_normalized: 'expired', expiration_date: '2026-01-31' },
      new: { status_normalized: 'active', expiration_date: '2028-01-31' },
    });
    expect(renewed.alert!.cause_event_ids).toHaveLength(2);
    expect(await alerts('b', 'renewed_after_lapse')).toEqual([]);
    await ingest(SNAPSHOTS.second, '2027-02-16');
    expect(await alerts('a', 'renewed_after_lapse')).toHaveLength(1);
  });

  it('when a pass reads its watches a page at a time and a page ends between two watchers of one licence then both are told', async () => {
    await side.store.query("DELETE FROM change_events WHERE type = 'license_expiring'");
    now = new Date('2026-11-02T07:00:00Z');
    const webhooks = createWebhooksRepo(side.store);
    const repo = createChangesRepo(side.store, (tx, runId, ownOnly) => webhooks.fanOut(tx, runId, now, ownOnly));
    const pass = createExpiryPass({ repo, reads: async () => graph.reads(() => '2026-11-02'), now: () => now, log: { error: () => undefined }, page: 1 });
    // 1-SA is watched by a and by b: pages of one watch end between them.
    expect(await pass.run()).toBe(2);
    expect(await marks('a')).toEqual(['1-SA:90']);
    expect(await marks('b')).toEqual(['1-SA:90']);
  });
});
