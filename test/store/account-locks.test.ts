import { describe, expect, it } from 'vitest';
import type { JobRow } from '../../src/modules/jobs/jobs.repo.js';
import { createJobsRepo } from '../../src/modules/jobs/jobs.repo.js';
import { createVerificationsRepo } from '../../src/modules/verifications/verifications.repo.js';
import { callOf } from '../../src/modules/verifications/verifications.service.js';
import { sideOf, POSTGRES, postgresAvailable } from '../helpers/stores.js';

// Two watched jobs of one account that finish together: each chunk's commit inserts its evidence
// (a foreign key to the account: a KEY SHARE lock on its row) and then locks the account row to
// add to the watchlist. With FOR UPDATE there, each waited for the other's share lock: a deadlock
// PostgreSQL broke by failing one commit. PGlite runs one transaction at a time and cannot meet it.
const available = await postgresAvailable();

describe.skipIf(!available)('account row locks on PostgreSQL', () => {
  it('when two watched jobs of one account finish at the same moment then both commit', async () => {
    const { store, drop } = await POSTGRES.open();
    try {
      const { account } = await (await sideOf(store)).accounts.createAccount({ email: 'two-jobs@example.com', plan: 'growth' });
      const jobs = createJobsRepo(store);
      const evidence = createVerificationsRepo(store);
      const call = () =>
        callOf({ account, keyId: '00000000-0000-4000-8000-00000000000a' }, 'batch', [{ index: 0, asked: { state: 'TX', license_number: '1' }, answer: { verified: false, verdict: 'not_found', reasons: ['not_found'], name_match: null, licensee: null, source: null } as never }], { status: 200, sha256: 'x' }, new Date());
      // Both transactions hold their evidence's share lock before either stops its job.
      let arrived = 0;
      let go!: () => void;
      const bothIn = new Promise<void>((resolve) => (go = resolve));
      const finishing = (id: string) =>
        store.transaction(async (tx) => {
          await evidence.insertJson(JSON.stringify([call()]), tx);
          if (++arrived === 2) go();
          await bothIn;
          return jobs.watchFound(tx, { id, account_id: account.id } as JobRow, 25);
        });
      const results = await Promise.allSettled([finishing('00000000-0000-4000-8000-000000000001'), finishing('00000000-0000-4000-8000-000000000002')]);
      expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'committed'))).toEqual(['committed', 'committed']);
      expect(await store.query('SELECT count(*)::int AS n FROM verification_calls WHERE account_id = $1', [account.id])).toEqual([{ n: 2 }]);
    } finally {
      await drop();
    }
  });
});
