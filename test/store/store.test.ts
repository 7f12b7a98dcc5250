import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { systemClock } from '../../src/domain/clock.js';
import { DataDirLockedError, StoreError } from '../../src/errors.js';
import { createVerificationsRepo } from '../../src/modules/verifications/verifications.repo.js';
import { createVerificationsService } from '../../src/modules/verifications/verifications.service.js';
import { migrate, migrationFiles } from '../../src/store/migrations.js';
import { openPglite } from '../../src/store/pglite-store.js';
import { openPostgres } from '../../src/store/postgres-store.js';
import { openPostgresWriter } from '../../src/store/postgres-writer.js';
import { POSTGRES, POSTGRES_URL, postgresSchema, storeKinds, type StoreKind } from '../helpers/stores.js';

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

/** A store of this kind with the migrations before `version` applied, as a store made then has. */
async function migratedBefore(kind: StoreKind, version: number) {
  const schema = kind.name === 'pglite' ? undefined : await postgresSchema();
  const store = schema ? await openPostgres(schema.url, 2) : await openPglite();
  const before = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-migrations-'));
  try {
    for (const m of migrationFiles().filter((f) => f.version < version)) fs.writeFileSync(path.join(before, m.name), m.sql);
    await migrate(store, before);
  } finally {
    fs.rmSync(before, { recursive: true, force: true });
  }
  return { store, drop: async () => (await store.close(), await schema?.drop()) };
}

describe.each(kinds)('the event names migration on $name', (kind) => {
  it('when 008 runs over events, deliveries and endpoints stored as licence_added then they say license_added', async () => {
    const { store, drop } = await migratedBefore(kind, 8);
    try {
      const account = '00000000-0000-4000-8000-000000000001';
      const run = '00000000-0000-4000-8000-0000000000a1';
      await store.query("INSERT INTO accounts (id, email, plan) VALUES ($1, 'old@example.com', 'enterprise')", [account]);
      await store.query("INSERT INTO change_runs (id, source, state, snapshot_date, status) VALUES ($1, 'tx-trec', 'TX', '2026-10-01', 'committed')", [run]);
      await store.query(
        `INSERT INTO change_events (run_id, n, seq, type, state, license_number, snapshot_date, detected_at, source)
         VALUES ($1, 0, 1, 'licence_added', 'TX', '4-SA', '2026-10-01', now(), 'tx-trec'), ($1, 1, 2, 'status_changed', 'TX', '1-SA', '2026-10-01', now(), 'tx-trec')`,
        [run],
      );
      await store.query(
        `INSERT INTO webhook_endpoints (id, account_id, url, event_types, secret, status, created_at, updated_at)
         VALUES ('we_1', $1, 'https://hooks.example.com/a', ARRAY['status_changed', 'licence_added'], 'whsec_a', 'enabled', now(), now()),
                ('we_2', $1, 'https://hooks.example.com/b', NULL, 'whsec_b', 'enabled', now(), now()),
                ('we_3', $1, 'https://hooks.example.com/c', ARRAY['left_source'], 'whsec_c', 'enabled', now(), now())`,
        [account],
      );
      await store.query("INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, event_type, status, created_at) VALUES ('msg_1', 'we_1', 1, 'licence_added', 'pending', now()), ('msg_2', 'we_1', 2, 'status_changed', 'pending', now())");

      expect(await migrate(store)).toContain('008_license_event_names.sql');
      expect(await store.query('SELECT seq::int AS seq, type FROM change_events ORDER BY seq')).toEqual([{ seq: 1, type: 'license_added' }, { seq: 2, type: 'status_changed' }]);
      expect(await store.query('SELECT id, event_type FROM webhook_deliveries ORDER BY id')).toEqual([{ id: 'msg_1', event_type: 'license_added' }, { id: 'msg_2', event_type: 'status_changed' }]);
      expect(await store.query('SELECT id, event_types FROM webhook_endpoints ORDER BY id')).toEqual([
        { id: 'we_1', event_types: ['status_changed', 'license_added'] },
        { id: 'we_2', event_types: null },
        { id: 'we_3', event_types: ['left_source'] },
      ]);
    } finally {
      await drop();
    }
  });
});

describe.each(kinds)('the verification calls migration on $name', (kind) => {
  it('when 012 runs over records stored one per licence then each is a call of one item, read with its id and fields', async () => {
    const { store, drop } = await migratedBefore(kind, 12);
    try {
      const account = '00000000-0000-4000-8000-000000000001';
      await store.query("INSERT INTO accounts (id, email, plan) VALUES ($1, 'old@example.com', 'enterprise')", [account]);
      // A batch item with every field, and a verify with the nulls a not-found answer has; ids with low bits set.
      // (011's column kept the field's first spelling, licence_status; the records answer license_status.)
      await store.query(
        `INSERT INTO verifications (id, account_id, key_id, created_at, keep_until, operation, item_index, state, license_number, license_key, name_sent, verified,
           verdict, reasons, name_match, licence_status, expiration_date, source_id, snapshot_date, last_verified, http_status, body_sha256)
         VALUES ('019ac2a0-0000-7000-8000-00000000007f', $1, $1, '2026-11-20T10:00:00Z', '2033-11-20T10:00:00Z', 'batch', 3, 'TX', '0123-sa', '0123-SA',
           '{"name":"Dana Quinn"}', true, 'consider', ARRAY['name_close'], '{"result":"close","score":0.9,"compared_with":{"field":"full_name","value":"DANA QUINN"}}',
           'Active', '2027-01-31', 'tx-trec', '2026-11-19', '2026-11-19T06:00:00.000Z', 200, 'aa'),
                ('019ac2a0-0001-7000-8000-000000000001', $1, $1, '2026-11-20T10:00:01Z', '2033-11-20T10:00:01Z', 'verify', NULL, 'WY', '1', '1', NULL, false,
           'not_found', ARRAY['not_covered'], NULL, NULL, NULL, NULL, NULL, NULL, 304, 'bb')`,
        [account],
      );
      expect(await migrate(store)).toContain('012_verification_calls.sql');
      const service = createVerificationsService(createVerificationsRepo(store), systemClock);
      const page = await service.list(account, { per_page: 10 });
      expect(page.data).toEqual([
        {
          id: '019ac2a0-0001-7000-8000-000000000001', created_at: '2026-11-20T10:00:01.000Z', key_id: account, operation: 'verify', index: null, state: 'WY',
          license_number: '1', name_sent: null, verified: false, verdict: 'not_found', reasons: ['not_covered'], name_match: null, license_status: null,
          expiration_date: null, source_id: null, snapshot_date: null, last_verified: null, matcher_version: null, http_status: 304, body_sha256: 'bb', reviews: [],
        },
        {
          id: '019ac2a0-0000-7000-8000-00000000007f', created_at: '2026-11-20T10:00:00.000Z', key_id: account, operation: 'batch', index: 3, state: 'TX',
          license_number: '0123-sa', name_sent: { name: 'Dana Quinn' }, verified: true, verdict: 'consider', reasons: ['name_close'],
          name_match: { result: 'close', score: 0.9, compared_with: { field: 'full_name', value: 'DANA QUINN' } }, license_status: 'Active',
          expiration_date: '2027-01-31', source_id: 'tx-trec', snapshot_date: '2026-11-19', last_verified: '2026-11-19T06:00:00.000Z', matcher_version: null, http_status: 200, body_sha256: 'aa', reviews: [],
        },
      ]);
      expect((await service.get(account, '019ac2a0-0000-7000-8000-00000000007f')).index).toBe(3);
      expect((await service.list(account, { per_page: 10, license_number: '0123-SA' })).data.map((r) => r.id)).toEqual(['019ac2a0-0000-7000-8000-00000000007f']);
      expect((await service.list(account, { per_page: 10, verdicts: ['not_found'] })).data.map((r) => r.state)).toEqual(['WY']);
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

describe.skipIf(!kinds.includes(POSTGRES))('PostgreSQL writes on a thread of their own', () => {
  it('when statements go through the writer then they land in order, a refused one fails as a store error without stopping the next, and its connection comes back after the server ends it', async () => {
    const schema = await postgresSchema();
    const writer = openPostgresWriter(schema.url);
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    try {
      await writer.query('CREATE TABLE written (n int PRIMARY KEY)');
      await Promise.all([1, 2, 3].map((n) => writer.query('INSERT INTO written VALUES ($1)', [n])));
      await expect(writer.query('INSERT INTO written VALUES ($1)', [2])).rejects.toBeInstanceOf(StoreError);
      const [{ pid }] = await writer.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await new Promise((r) => setTimeout(r, 300));
      // The statement on the dead connection may fail; the writer connects again for the next.
      await writer.query('SELECT 1').catch(() => undefined);
      await writer.query('INSERT INTO written VALUES ($1)', [4]);
      // What was sent before the close is answered before the thread stops.
      const last = writer.query('INSERT INTO written VALUES ($1)', [5]);
      await writer.close();
      await last;
      await expect(writer.query('SELECT 1')).rejects.toBeInstanceOf(StoreError);
      const { rows } = await admin.query(`SELECT n FROM ${new URL(schema.url).searchParams.get('options')!.split('=')[1]}.written ORDER BY n`);
      expect(rows.map((r) => r.n)).toEqual([1, 2, 3, 4, 5]);
    } finally {
      await writer.close();
      await admin.end();
      await schema.drop();
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
