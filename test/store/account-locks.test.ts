import { describe, expect, it } from 'vitest';
import { sideOf, POSTGRES, postgresAvailable } from '../helpers/stores.js';

// Two watched jobs of one account that finish together: each chunk's commit inserts its verification records
// (a foreign key to the account: a KEY SHARE lock on its row) and then locks the account row to
// add to the watchlist. With FOR UPDATE there, each waited for the other's share lock: a deadlock
// PostgreSQL broke by failing one commit. PGlite runs one transaction at a time and cannot meet it.
const available = await postgresAvailable();

describe.skipIf(!available)('account row locks on PostgreSQL', () => {
  it('when two watched jobs of one account finish at the same moment then both commit', async () => {
    const { store, drop } = await POSTGRES.open();
    try {
      const side = await sideOf(store);
      const { account } = await side.accounts.createAccount({ email: 'two-jobs@example.com', plan: 'growth' });
      // Both transactions hold their verification records' share lock before either stops its job.
      let arrived = 0;
      let go!: () => void;
      const bothIn = new Promise<void>((resolve) => (go = resolve));
      // As a job's last chunk commits (jobs.runner.ts commitChunk): its verification records, then its watch pass.
      const finishing = (licence: string) =>
        store.transaction(async (tx) => {
          const asked = { state: 'TX', license_number: licence };
          const answer = { verified: false, verdict: 'not_found' as const, reasons: [], name_match: null, licensee: null, source: null };
          await side.verifications.recordIn(tx, { account, keyId: '00000000-0000-4000-8000-00000000000a' }, 'job', [{ index: 0, asked, answer }], { status: 200, sha256: 'x' });
          if (++arrived === 2) go();
          await bothIn;
          return side.watchlist.addInOrder(tx, account, [{ credential_id: `TX:${licence}`, state: 'TX', license_number: licence }]);
        });
      const results = await Promise.allSettled([finishing('1'), finishing('2')]);
      expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'committed'))).toEqual(['committed', 'committed']);
      expect(await store.query('SELECT count(*)::int AS n FROM verification_calls WHERE account_id = $1', [account.id])).toEqual([{ n: 2 }]);
      expect(await store.query('SELECT count(*)::int AS n FROM watched_licences WHERE account_id = $1', [account.id])).toEqual([{ n: 2 }]);
    } finally {
      await drop();
    }
  });
});
