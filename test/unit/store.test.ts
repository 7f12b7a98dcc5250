import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { DataDirLockedError, StoreError } from '../../src/errors.js';
import { migrate, migrationFiles } from '../../src/store/migrations.js';
import { openPglite } from '../../src/store/pglite-store.js';
import { POSTGRES, POSTGRES_URL, storeKinds } from '../helpers/stores.js';

const kinds = await storeKinds();

describe.each(kinds)('the side store on $name', (kind) => {
  it('when migrations run again then nothing is applied twice and every version is recorded', async () => {
    const { store, drop } = await kind.open();
    try {
      expect(await migrate(store)).toEqual([]);
      const rows = await store.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual(migrationFiles().map((m) => m.version));
    } finally {
      await drop();
    }
  });

  it('when a transaction fails then none of it is kept', async () => {
    const { store, drop } = await kind.open();
    try {
      await expect(
        store.transaction(async (tx) => {
          await tx.query("INSERT INTO accounts (id, email, plan) VALUES ('00000000-0000-4000-8000-000000000001', 'a@example.com', 'free')");
          await tx.query("INSERT INTO accounts (id, email, plan) VALUES ('00000000-0000-4000-8000-000000000002', 'a@example.com', 'free')");
        }),
      ).rejects.toThrow();
      expect(await store.query('SELECT id FROM accounts')).toEqual([]);
    } finally {
      await drop();
    }
  });
});

describe.skipIf(!kinds.includes(POSTGRES))('PostgreSQL connections that die', () => {
  it('when the server ends a connection inside a transaction then the transaction fails as a store error, the process lives, and the pool serves again', async () => {
    const { store, drop } = await POSTGRES.open();
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    try {
      const failed = store.transaction(async (tx) => {
        const [{ pid }] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        // The connection dies while the client is checked out between two statements.
        await new Promise((r) => setTimeout(r, 300));
        await tx.query('SELECT 1');
      });
      await expect(failed).rejects.toBeInstanceOf(StoreError);
      expect(await store.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await admin.end();
      await drop();
    }
  });
});

describe('PGlite on disk', () => {
  it('when a second opener tries the same folder then it is refused, and the folder opens again after close', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-pglite-'));
    const folder = path.join(dir, 'accounts.pglite');
    const first = await openPglite(folder);
    await migrate(first);
    await expect(openPglite(folder)).rejects.toBeInstanceOf(DataDirLockedError);
    await first.query("INSERT INTO accounts (id, email, plan) VALUES ('00000000-0000-4000-8000-000000000001', 'kept@example.com', 'free')");
    await first.close();
    const again = await openPglite(folder);
    expect(await again.query('SELECT email FROM accounts')).toEqual([{ email: 'kept@example.com' }]);
    await again.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
