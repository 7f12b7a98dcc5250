import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshOf } from '../../src/compose/index.js';
import { credentialId } from '../../src/domain/identity.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { refresh } from '../../src/ingest/refresh/refresh.js';
import { resolveFormat } from '../../src/ingest/sources/index.js';
import { createAlerts } from '../../src/modules/changes/alerts.js';
import { createChangesRepo } from '../../src/modules/changes/changes.repo.js';
import { ChangeFeed } from '../../src/modules/changes/changes.schemas.js';
import { createWebhooksRepo } from '../../src/modules/webhooks/webhooks.repo.js';
import { WatchResult } from '../../src/modules/watchlist/watchlist.schemas.js';
import { EndpointWithSecret } from '../../src/modules/webhooks/webhooks.schemas.js';
import { files, testApp, testGraph, testStore } from '../helpers/graph.js';
import { body } from '../helpers/http.js';
import { TX_HEADER, tempFile, txRow } from '../helpers/source-files.js';

// Alerts derived for the accounts that watch licences (docs/changes.md, *Alerts for your
// watchlist*), over two TX snapshots written from the TREC layout.
const person = (type: string, number: string, related?: string, status?: string) =>
  txRow({ type, number, name: `PERSON ${number.replace(/\W/g, '')}`, status, related, relatedStart: related && '01/01/2020 12:00:00 AM' });
const SNAPSHOTS = {
  first: [
    TX_HEADER,
    ...['10-B', '20-B', '30-B', '40-B'].map((n) => person('Broker Individual', n)),
    // 800-C's designated broker is 20-B; 900-C's is 30-B, then 40-B.
    person('Broker Corporation', '800-C', '20-B'),
    person('Broker Corporation', '900-C', '30-B'),
    person('Sales Agent', '1-SA', '10-B'),
    person('Sales Agent', '2-SA', '800-C'),
    person('Sales Agent', '3-SA', '10-B'),
    person('Sales Agent', '4-SA', '30-B'),
  ],
  second: [
    TX_HEADER,
    person('Broker Individual', '10-B', undefined, 'Suspended'),
    person('Broker Individual', '20-B', undefined, 'Expired'),
    ...['30-B', '40-B'].map((n) => person('Broker Individual', n)),
    person('Broker Corporation', '800-C', '20-B'),
    txRow({ type: 'Broker Corporation', number: '900-C', name: 'PERSON 900C', related: '40-B', relatedStart: '09/20/2026 12:00:00 AM' }),
    person('Sales Agent', '1-SA', '10-B'),
    person('Sales Agent', '2-SA', '800-C'),
    // 3-SA has no sponsor now: a gap (TREC publishes supervision in full).
    person('Sales Agent', '3-SA'),
    person('Sales Agent', '4-SA', '30-B'),
  ],
};
const id = (number: string) => credentialId('TX', number);
const NUMBERS = new Map(['1-SA', '2-SA', '3-SA', '800-C', '900-C'].map((n) => [id(n), n]));

describe('alerts derived for a watchlist', () => {
  let graph: GraphAdapters;
  let side: Awaited<ReturnType<typeof testStore>>;
  let app: App;
  const auth: Record<'watcher' | 'other', Record<string, string>> = { watcher: {}, other: {} };
  const rejectsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-alerts-'));
  const ingest = (lines: string[], snapshot: string) => {
    const file = tempFile('tx.csv', `${lines.join('\n')}\n`);
    return refresh(refreshOf(graph, files, side.clock, side.changes.log), { files: [file], format: resolveFormat(file), snapshot, rejectsDir });
  };
  const feed = async (who: 'watcher' | 'other') => body(await request(app).get('/api/v1/licensees/changes?limit=1000').set(auth[who]), ChangeFeed).data;
  const alerts = async (who: 'watcher' | 'other') => (await feed(who)).filter((e) => e.alert !== null);

  beforeAll(async () => {
    ({ graph } = await testGraph());
    side = await testStore({ WEBHOOK_ALLOW_PRIVATE_URLS: true }, undefined, undefined, { graph });
    app = testApp(graph, side) as unknown as App;
    for (const who of ['watcher', 'other'] as const) {
      const key = (await side.accounts.createAccount({ email: `${who}@example.com`, plan: 'enterprise' })).key.key;
      auth[who] = { Authorization: `Bearer ${key}` };
      body(await request(app).post('/api/v1/webhooks').set(auth[who]).send({ url: `http://127.0.0.1:9/${who}` }), EndpointWithSecret);
    }
    await ingest(SNAPSHOTS.first, '2026-09-01');
    const watch = (who: 'watcher' | 'other', numbers: string[]) =>
      request(app).post('/api/v1/watchlist').set(auth[who]).send({ items: numbers.map((license_number) => ({ state: 'TX', license_number })) });
    body(await watch('watcher', ['1-SA', '2-SA', '3-SA', '900-C']), WatchResult);
    body(await watch('other', ['4-SA']), WatchResult);
  });
  afterAll(async () => {
    await graph?.close();
    await side?.store.close();
  });

  it('when a broker above a watched agent is suspended, an agent is left without a sponsor and a firm changes its designated broker then the watching account alone is told, each once, with the path', async () => {
    await ingest(SNAPSHOTS.second, '2026-10-01');
    const told = await alerts('watcher');
    const summary = told.map((e) => [e.type, e.license_number, e.alert!.path.map((p) => `${NUMBERS.get(p.affiliate_license_credential_id)}>${p.supervisor_license_number}:${p.relationship_type}`).join(' ')]);
    expect(summary.sort()).toEqual(
      [
        ['designated_broker_changed', '900-C', ''],
        ['supervision_gap_opened', '3-SA', ''],
        ['supervisor_status_changed', '1-SA', '1-SA>10-B:sponsoring_broker'],
        ['supervisor_status_changed', '2-SA', '2-SA>800-C:sponsoring_broker 800-C>20-B:designated_broker'],
        ['supervisor_status_changed', '3-SA', '3-SA>10-B:sponsoring_broker'],
      ].sort(),
    );
    // Each names the public event it comes from.
    const all = await feed('watcher');
    const byId = new Map(all.map((e) => [e.id, e]));
    const [chain] = told.filter((e) => e.license_number === '2-SA');
    expect(chain.alert!.cause_event_ids.map((c) => [byId.get(c)!.type, byId.get(c)!.license_number])).toEqual([['status_changed', '20-B']]);
    expect(chain).toMatchObject({ old: { status: 'Active' }, new: { status: 'Expired' }, license_credential_id: id('2-SA') });
    const [designated] = told.filter((e) => e.type === 'designated_broker_changed');
    expect(designated).toMatchObject({
      old: { designated_brokers: [{ license_number: '30-B', relationship_type: 'designated_broker' }] },
      new: { designated_brokers: [{ license_number: '40-B', relationship_type: 'designated_broker' }] },
    });
    const [gap] = told.filter((e) => e.type === 'supervision_gap_opened');
    expect(gap.relationship).toMatchObject({ supervisor_license_number: '10-B', affiliate_license_credential_id: id('3-SA'), effective_to: '2026-10-01' });

    // The other account sees the public events and none of these; its licence's broker did not change.
    const others = await feed('other');
    expect(others.filter((e) => e.alert !== null)).toEqual([]);
    expect(others.length).toBe(all.length - told.length);
    // Webhooks: the watcher's endpoint has a delivery of each; the other's has none of them.
    const delivered = await side.store.query<{ url: string; event_type: string }>(
      `SELECT w.url, d.event_type FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN change_events e ON e.seq = d.event_seq WHERE e.account_id IS NOT NULL ORDER BY d.event_type`,
    );
    expect(delivered.map((d) => [d.url, d.event_type])).toEqual(told.map((e) => ['http://127.0.0.1:9/watcher', e.type]).sort((a, b) => a[1].localeCompare(b[1])));
  });

  it('when the same snapshot comes again, or a run is derived again after a crash, then no alert is written twice', async () => {
    const before = await alerts('watcher');
    await ingest(SNAPSHOTS.second, '2026-10-01');
    expect(await alerts('watcher')).toEqual(before);

    // A derivation run again (as a start after a crash would) finds every key written.
    await side.store.query("UPDATE change_runs SET derived = false WHERE source = 'tx-trec'");
    await side.changes.log.recover('tx-trec', async () => true);
    expect(await alerts('watcher')).toEqual(before);
    const [{ underived }] = await side.store.query<{ underived: number }>("SELECT count(*)::int AS underived FROM change_runs WHERE NOT derived");
    expect(underived).toBe(0);

    // A crash before the derivation's one transaction: nothing of it was written, and recovery writes it all.
    await side.store.query('DELETE FROM change_events WHERE account_id IS NOT NULL');
    await side.store.query("UPDATE change_runs SET derived = false WHERE source = 'tx-trec'");
    await side.changes.log.recover('tx-trec', async () => true);
    const again = await alerts('watcher');
    expect(again.map((e) => e.alert!.key).sort()).toEqual(before.map((e) => e.alert!.key).sort());
  });

  it('when a derivation reads the watches a page at a time then it writes the same alerts and deliveries, each once, and marks the run derived', async () => {
    const before = await alerts('watcher');
    await side.store.query('DELETE FROM change_events WHERE account_id IS NOT NULL');
    await side.store.query("UPDATE change_runs SET derived = false WHERE source = 'tx-trec'");
    const webhooks = createWebhooksRepo(side.store);
    const repo = createChangesRepo(side.store, (tx, runId, ownOnly) => webhooks.fanOut(tx, runId, new Date(), ownOnly));
    const derive = createAlerts({ repo, reads: async () => graph.reads(() => '2026-10-01'), now: () => new Date(), log: { error: () => undefined }, page: 1 });
    for (const run of await repo.underivedRuns('tx-trec')) await derive(run);
    const again = await alerts('watcher');
    expect(again.map((e) => e.alert!.key).sort()).toEqual(before.map((e) => e.alert!.key).sort());
    const [{ deliveries, underived }] = await side.store.query<{ deliveries: number; underived: number }>(
      `SELECT (SELECT count(*)::int FROM webhook_deliveries d JOIN change_events e ON e.seq = d.event_seq WHERE e.account_id IS NOT NULL) AS deliveries,
              (SELECT count(*)::int FROM change_runs WHERE NOT derived) AS underived`,
    );
    expect({ deliveries, underived }).toEqual({ deliveries: before.length, underived: 0 });
  });

  it('when the feed is asked for an alert type then it is a known type', async () => {
    const res = await request(app).get('/api/v1/licensees/changes?types=supervisor_status_changed,supervision_gap_opened').set(auth.watcher);
    expect(body(res, ChangeFeed).data.map((e) => e.type).sort()).toEqual(['supervision_gap_opened', 'supervisor_status_changed', 'supervisor_status_changed', 'supervisor_status_changed']);
  });
});
