import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../src/domain/changes.js';
import { createChangesRepo } from '../../src/modules/changes/changes.repo.js';
import { createWebhooksRepo } from '../../src/modules/webhooks/webhooks.repo.js';
import { sideOf, storeKinds } from '../helpers/stores.js';

// A large suspension's alerts are published a batch (5,000) a transaction, each with its deliveries;
// the run is marked derived with the last. A derivation cut off between batches is derived again whole.
const kinds = await storeKinds();

describe.each(kinds)('alerts published in batches on $name', (kind) => {
  it('when a derivation fails in its third batch then the first two stay published and the next derivation writes the rest once, in order, a number each', async () => {
    const { store, drop } = await kind.open();
    try {
      const side = await sideOf(store);
      const { account } = await side.accounts.createAccount({ email: 'batches@example.com', plan: 'enterprise' });
      await store.query("INSERT INTO webhook_endpoints (id, account_id, url, secret, status, created_at, updated_at) VALUES ('we_batches', $1, 'https://hooks.example.com/x', 'whsec_x', 'enabled', now(), now())", [account.id]);
      const webhooks = createWebhooksRepo(store);
      const repo = createChangesRepo(store, (tx, runId, ownOnly) => webhooks.fanOut(tx, runId, new Date(), ownOnly));
      const run = { id: randomUUID(), source: 'tx-trec', state: 'TX', snapshot_date: '2026-11-01' };
      await store.query("INSERT INTO change_runs (id, source, state, snapshot_date, status, derived) VALUES ($1, $2, $3, $4::date, 'committed', false)", [run.id, run.source, run.state, run.snapshot_date]);
      const alert = (i: number, accountId: string): ChangeEvent => ({
        type: 'supervisor_status_changed', state: 'TX', license_credential_id: `TX:${i}-SA`, license_number: `${i}-SA`, account_id: accountId,
        snapshot_date: run.snapshot_date, detected_at: '2026-11-01T06:00:00.000Z', source: run.source, old: { status: 'Active' }, new: { status: 'Suspended' }, relationship: null,
        alert: { key: `supervisor_status_changed:1:TX:${i}-SA`, path: [], cause_seqs: [1] },
      });
      const events = Array.from({ length: 12_000 }, (_, i) => alert(i, account.id));
      // An account id that is not one fails the third batch's insert.
      const broken = events.map((e, i) => (i === 10_500 ? { ...e, account_id: 'not-a-uuid' } : e));
      await expect(repo.publishDerived(run, broken)).rejects.toThrow();
      const published = async () => (await store.query<{ n: number; deliveries: number; derived: boolean }>(
        `SELECT (SELECT count(*)::int FROM change_events WHERE account_id = $1) AS n,
                (SELECT count(*)::int FROM webhook_deliveries WHERE endpoint_id = 'we_batches') AS deliveries,
                (SELECT derived FROM change_runs WHERE id = $2) AS derived`, [account.id, run.id]))[0];
      expect(await published()).toEqual({ n: 10_000, deliveries: 10_000, derived: false });

      expect(await repo.publishDerived(run, events)).toBe(2_000);
      expect(await published()).toEqual({ n: 12_000, deliveries: 12_000, derived: true });
      // Once derived, the run writes nothing again (null: stop deriving).
      expect(await repo.publishDerived(run, events)).toBe(null);
      const seqs = (await store.query<{ seq: string }>('SELECT seq::text FROM change_events WHERE account_id = $1 ORDER BY change_events.seq', [account.id])).map((r) => Number(r.seq));
      expect(new Set(seqs).size).toBe(12_000);
      // The 10,000 held already were left out before numbering: the 2,000 written took 2,000 numbers.
      expect(seqs[11_999] - seqs[10_000] + 1).toBe(2_000);
      const order = await store.query<{ license_number: string }>('SELECT license_number FROM change_events WHERE account_id = $1 ORDER BY seq LIMIT 3 OFFSET 9999', [account.id]);
      expect(order.map((r) => r.license_number)).toEqual(['9999-SA', '10000-SA', '10001-SA']);
    } finally {
      await drop();
    }
  });
});
