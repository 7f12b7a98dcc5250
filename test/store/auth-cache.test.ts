import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountsRepo } from '../../src/modules/accounts/accounts.repo.js';
import { AUTH_STALE_MS, createAccountsService } from '../../src/modules/accounts/accounts.service.js';
import type { SqlStore } from '../../src/store/sql-store.js';
import { PGLITE } from '../helpers/stores.js';

// PGlite has one connection: a long write (a refresh's change events) holds every key lookup
// behind it. Callers of a key checked lately are answered meanwhile; nobody else is.

describe('API key lookups while the store is busy with a long write', () => {
  let store: SqlStore;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ store, drop } = await PGLITE.open());
  });
  afterAll(() => drop());

  /** The service on a clock the test moves, with a key of a new account. */
  async function setup() {
    let at = Date.parse('2026-12-01T08:00:00Z');
    const accounts = createAccountsService(createAccountsRepo(store), () => new Date(at));
    const { key } = await accounts.createAccount({ email: `busy-${randomUUID()}@example.com`, plan: 'growth' });
    return { accounts, header: `Bearer ${key.key}`, keyId: key.id, move: (ms: number) => (at += ms) };
  }

  /** Holds the store's connection in a transaction until the returned function is called. */
  async function holdStore() {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let began!: () => void;
    const beginning = new Promise<void>((r) => (began = r));
    const held = store.transaction(async (tx) => {
      await tx.query('SELECT 1');
      began();
      await released;
    });
    await beginning;
    return async () => {
      release();
      await held;
    };
  }

  /** Whether `p` settles before the event loop has turned a few times (the store is held meanwhile). */
  const settlesNow = async (p: Promise<unknown>) => Promise.race([p.then(() => true, () => true), new Promise<boolean>((r) => setTimeout(() => r(false), 50))]);

  it('when the store has not answered the lookup begun at half the entry\'s second then its callers are answered from the entry until AUTH_STALE_MS past it, and wait for the store after', async () => {
    const { accounts, header, keyId, move } = await setup();
    expect(await accounts.authenticate(header)).toMatchObject({ keyId });
    const release = await holdStore();
    try {
      // Past half its life: the lookup in the background waits for the store, the caller does not.
      move(600);
      expect(await settlesNow(accounts.authenticate(header))).toBe(true);
      // Past its second, the store still busy: answered from the entry.
      move(1_000);
      const stale = accounts.authenticate(header);
      expect(await settlesNow(stale)).toBe(true);
      expect(await stale).toMatchObject({ keyId });
      // Past the bound, the caller waits for the store.
      move(AUTH_STALE_MS);
      const waiting = accounts.authenticate(header);
      expect(await settlesNow(waiting)).toBe(false);
      await release();
      expect(await waiting).toMatchObject({ keyId });
    } finally {
      await release();
    }
  });

  it('when a key was not checked in the second half of its entry\'s life then callers after the second wait for the store, the first one\'s lookup in flight or not', async () => {
    const { accounts, header, keyId, move } = await setup();
    expect(await accounts.authenticate(header)).toMatchObject({ keyId });
    move(1_600);
    const release = await holdStore();
    try {
      const first = accounts.authenticate(header);
      const second = accounts.authenticate(header);
      expect(await settlesNow(Promise.race([first, second]))).toBe(false);
      await release();
      expect(await Promise.all([first, second])).toMatchObject([{ keyId }, { keyId }]);
    } finally {
      await release();
    }
  });

  it('when a key checked lately is revoked on this instance while the store is busy then it is refused once the revocation lands, not answered from the entry', async () => {
    const { accounts, header, keyId, move } = await setup();
    expect(await accounts.authenticate(header)).toMatchObject({ keyId });
    await accounts.operatorRevokeKey(keyId);
    const release = await holdStore();
    try {
      move(1_600);
      const after = accounts.authenticate(header);
      expect(await settlesNow(after)).toBe(false);
      await release();
      await expect(after).rejects.toThrow(/revoked/);
    } finally {
      await release();
    }
  });
});
