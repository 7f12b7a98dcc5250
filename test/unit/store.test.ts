import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError } from '../../src/errors.js';
import { migrate, migrationFiles } from '../../src/store/migrations.js';
import { openPglite } from '../../src/store/pglite-store.js';
import { storeKinds } from '../helpers/stores.js';

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
