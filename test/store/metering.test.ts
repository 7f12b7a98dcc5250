import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/errors.js';
import type { Account } from '../../src/modules/accounts/account.js';
import { createAccountsRepo, type AccountsRepo } from '../../src/modules/accounts/accounts.repo.js';
import { createUsageRepo, type UsageRepo } from '../../src/modules/accounts/usage.repo.js';
import { createAccountsService } from '../../src/modules/accounts/accounts.service.js';
import { createMeter } from '../../src/modules/accounts/metering.js';
import type { SqlStore } from '../../src/store/sql-store.js';
import { PGLITE } from '../helpers/stores.js';

// A connection can drop while a commit is in flight: the write may have landed or not, and the
// meter cannot tell from the error. Here the store's answer is lost after the write (it landed)
// or instead of it (it did not), and the counts must come out the same: every served call once.

type Fault = 'landed' | 'not landed';
const clock = () => new Date();
type Method = 'leaseQuota' | 'returnQuota' | 'addUsage';

/** The real repository, with the next call of `method` failing as a dropped connection does. */
function faulty(repo: UsageRepo) {
  const faults = new Map<Method, Fault>();
  const wrapped = { ...repo };
  for (const method of ['leaseQuota', 'returnQuota', 'addUsage'] as const) {
    wrapped[method] = (async (...args: unknown[]) => {
      const fault = faults.get(method);
      faults.delete(method);
      if (fault === 'not landed') throw new StoreError('the accounts store could not answer: connection terminated');
      const out = await (repo[method] as (...a: unknown[]) => Promise<unknown>)(...args);
      if (fault === 'landed') throw new StoreError('the accounts store could not answer: connection terminated after the commit');
      return out;
    }) as never;
  }
  return { repo: wrapped, fail: (method: Method, fault: Fault) => faults.set(method, fault) };
}

describe('metering when a usage write may or may not have landed', () => {
  let store: SqlStore;
  let drop: () => Promise<void>;
  let accounts: AccountsRepo;
  let repo: UsageRepo;
  let account: Account;
  let keyId: string;

  // One store for the file: each test has an account of its own.
  beforeAll(async () => {
    ({ store, drop } = await PGLITE.open());
    accounts = createAccountsRepo(store);
    repo = createUsageRepo(store);
  });
  afterAll(() => drop());

  async function open(plan: 'free' | 'growth') {
    const created = await createAccountsService(accounts, clock).createAccount({ email: `${plan}-${randomUUID()}@example.com`, plan });
    account = (await accounts.accountById(created.account.id))!;
    keyId = created.key.id;
    const { repo: flaky, fail } = faulty(repo);
    return { meter: createMeter(flaky, clock), fail };
  }

  /** Serves `n` calls (each admitted and answered 200); returns how many were admitted. */
  async function serve(meter: ReturnType<typeof createMeter>, n: number) {
    let served = 0;
    for (let i = 0; i < n; i++) {
      const ticket = await meter.admit({ account, keyId }, 'verifyLicense').catch((err: unknown) => {
        expect(err).toBeInstanceOf(StoreError);
        return undefined;
      });
      if (!ticket) continue;
      await meter.settle(ticket, 200);
      served += 1;
    }
    return served;
  }

  const stored = async () => {
    const [row] = await store.query<{ used: number }>('SELECT used FROM usage_totals WHERE account_id = $1', [account.id]);
    return { used: row?.used ?? 0, calls: (await repo.callsByEndpoint(account.id, (await meter0()).period)).verifyLicense ?? 0 };
  };
  const meter0 = async () => createMeter(repo, clock).usage(account);

  for (const fault of ['landed', 'not landed'] as const) {
    it(`when a free account's lease ${fault === 'landed' ? 'landed' : 'did not land'} but its answer was lost then no unit is lost and none counted twice`, async () => {
      const { meter, fail } = await open('free');
      fail('leaseQuota', fault);
      const served = await serve(meter, 7);
      expect(served).toBe(6);
      await meter.flush();
      expect(await stored()).toEqual({ used: 6, calls: 6 });
      expect((await meter.usage(account)).used).toBe(6);
    });

    it(`when a free account's unused units were given back and the write ${fault === 'landed' ? 'landed' : 'did not land'} but its answer was lost then the next flush settles them`, async () => {
      const { meter, fail } = await open('free');
      expect(await serve(meter, 3)).toBe(3);
      fail('returnQuota', fault);
      await expect(meter.flush()).rejects.toBeInstanceOf(StoreError);
      await meter.flush();
      expect(await stored()).toEqual({ used: 3, calls: 3 });
      expect(await serve(meter, 2)).toBe(2);
      await meter.flush();
      expect(await stored()).toEqual({ used: 5, calls: 5 });
    });

    it(`when a paid account's counts ${fault === 'landed' ? 'landed' : 'did not land'} but the answer was lost then they are in the store once`, async () => {
      const { meter, fail } = await open('growth');
      expect(await serve(meter, 4)).toBe(4);
      fail('addUsage', fault);
      await expect(meter.flush()).rejects.toBeInstanceOf(StoreError);
      expect((await meter.usage(account)).used).toBeGreaterThanOrEqual(4);
      expect(await serve(meter, 2)).toBe(2);
      await meter.flush();
      expect(await stored()).toEqual({ used: 6, calls: 6 });
      expect((await meter.usage(account)).used).toBe(6);
      expect((await meter.usage(account)).by_endpoint.verifyLicense).toBe(6);
    });
  }

  it('when usage is read while a flush gives unused units back then used is the calls made, not the units on their way', async () => {
    await open('free');
    // The return is held until the reading has read the store's total; a meter that waits for
    // the flush before reading never reads while it is held, and a timer lets that flush go on.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let returning!: () => void;
    const started = new Promise<void>((r) => (returning = r));
    const slow: UsageRepo = {
      ...repo,
      returnQuota: async (...args) => (returning(), await held, repo.returnQuota(...args)),
      usedThisPeriod: async (...args) => {
        const used = await repo.usedThisPeriod(...args);
        release();
        return used;
      },
    };
    const meter = createMeter(slow, clock);
    expect(await serve(meter, 3)).toBe(3);
    const flushed = meter.flush();
    await started;
    const reading = meter.usage(account);
    const fallback = setTimeout(release, 300);
    await flushed;
    clearTimeout(fallback);
    expect((await reading).used).toBe(3);
    expect(await stored()).toEqual({ used: 3, calls: 3 });
  });
});
