// A watchlist load for the refresh benches (issue 59): accounts that watch licences, each with a
// webhook endpoint, and the alerts of a run derived again alone, as a restart would derive them.
// Both open the data dir's side store (and graph) themselves: no server may hold them meanwhile.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse';
import type { compose } from '../src/compose/index.js';

type Root = ReturnType<typeof compose>;
type Ref = { state: string; license_number: string };

/** FL's licences under `broker` in a national dataset (their published link: none ended). */
export async function largestAffiliates(dataset: string, broker: string): Promise<Ref[]> {
  const out: Ref[] = [];
  for await (const r of fs.createReadStream(path.join(dataset, 'relationships.csv')).pipe(parse({ columns: true }))) {
    if (r.supervisor_state === 'FL' && r.supervisor_license_number === broker && r.affiliate_state === 'FL' && !r.effective_to) out.push({ state: 'FL', license_number: r.affiliate_license_number });
  }
  return out;
}

/** `accounts` accounts watch `refs`, each with an enabled endpoint at `url` for every event type. */
export async function addWatchers(rootOf: () => Root, refs: Ref[], accounts: number, url: string) {
  const root = rootOf();
  try {
    const side = await root.side();
    for (let k = 0; k < accounts; k++) {
      const { account } = await side.accounts.createAccount({ email: `watcher-${k}-${Date.now()}@bench.example`, plan: 'enterprise' });
      for (let i = 0; i < refs.length; i += 1000) await side.watchlist.add(account, refs.slice(i, i + 1000));
      await side.store.query(
        "INSERT INTO webhook_endpoints (id, account_id, url, secret, status, created_at, updated_at) VALUES ($1, $2, $3, 'whsec_bench', 'enabled', now(), now())",
        [`we_bench_${k}_${Date.now()}`, account.id, url],
      );
    }
  } finally {
    await root.close();
  }
}

export interface Derived {
  /** Alerts and their deliveries the run's derivation stored as it was part of the refresh. */
  alerts: number;
  deliveries: number;
  /** The same run derived again alone: its time and what it stored. */
  ms: number;
  again: { alerts: number; deliveries: number };
}

/**
 * The alerts of `source`'s latest committed run, removed and derived again alone by the recovery
 * a start runs: what they were, and how long deriving and storing them (deliveries due) took.
 */
export async function deriveAgain(rootOf: () => Root, source: string): Promise<Derived> {
  const root = rootOf();
  try {
    const side = await root.side();
    // The run with public events, and the runs its alerts were stored under (the expiry pass's are not its).
    const [run] = await side.store.query<{ id: string; snapshot_date: string }>(
      `SELECT id, snapshot_date::text FROM change_runs r WHERE source = $1 AND status = 'committed'
       AND EXISTS (SELECT 1 FROM change_events e WHERE e.run_id = r.id AND e.account_id IS NULL) ORDER BY created_at DESC LIMIT 1`,
      [source],
    );
    const alertsOf = `FROM change_events x WHERE x.account_id IS NOT NULL AND x.type <> 'license_expiring'
      AND x.run_id IN (SELECT id FROM change_runs WHERE source = $1 AND snapshot_date = $2::date AND id <> $3)`;
    const params = [source, run.snapshot_date, run.id];
    const count = async () =>
      (await side.store.query<{ alerts: number; deliveries: number }>(
        `SELECT count(*)::int AS alerts, (SELECT count(*)::int FROM webhook_deliveries d WHERE d.event_seq IN (SELECT x.seq ${alertsOf})) AS deliveries ${alertsOf}`,
        params,
      ))[0];
    const first = await count();
    await side.store.query(`DELETE FROM change_events WHERE seq IN (SELECT x.seq ${alertsOf})`, params);
    await side.store.query('UPDATE change_runs SET derived = false WHERE id = $1', [run.id]);
    const started = Date.now();
    await side.changes.log.recover(source, async () => true);
    const ms = Date.now() - started;
    return { ...first, ms, again: await count() };
  } finally {
    await root.close();
  }
}
