import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { compose } from '../../src/compose/index.js';
import type { Config } from '../../src/config.js';
import type { Clock } from '../../src/domain/clock.js';
import { migrate } from '../../src/store/migrations.js';
import { testConfig } from './config.js';
import { openPglite } from '../../src/store/pglite-store.js';
import { openPostgres } from '../../src/store/postgres-store.js';
import type { SqlStore } from '../../src/store/sql-store.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of a fresh migrated PGlite, written once per run (openapi-global-setup.ts). */
    pgliteTemplate?: string;
  }
}

let template: Uint8Array | undefined;

/**
 * A fresh, migrated, empty in-memory PGlite: a copy of the run's template when the global setup
 * wrote one (far cheaper than creating a cluster), else a new cluster.
 */
export async function openTestPglite() {
  const file = inject('pgliteTemplate');
  if (file && !template) template = fs.readFileSync(file);
  const store = await openPglite(undefined, { from: template });
  await migrate(store);
  return store;
}

export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

/** Whether the test PostgreSQL answers. In CI (REQUIRE_POSTGRES=1) a missing server fails the run. */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch (err) {
    if (process.env.REQUIRE_POSTGRES === '1') throw new Error(`PostgreSQL at ${POSTGRES_URL} does not answer: ${(err as Error).message}`);
    console.warn(`PostgreSQL at ${POSTGRES_URL} does not answer (${(err as Error).message}): its store tests are skipped`);
    return false;
  }
}

export interface StoreKind {
  name: 'pglite' | 'postgres';
  /** A fresh, migrated, empty store; its own schema on PostgreSQL so test files never meet. */
  open(): Promise<{ store: SqlStore; drop: () => Promise<void> }>;
}

export const PGLITE: StoreKind = {
  name: 'pglite',
  async open() {
    const store = await openTestPglite();
    return { store, drop: () => store.close() };
  },
};

/** A schema of its own on the test PostgreSQL: a DATABASE_URL that uses it, and its removal. */
export async function postgresSchema(base = POSTGRES_URL): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `lvs_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}

export const POSTGRES: StoreKind = {
  name: 'postgres',
  async open() {
    const schema = await postgresSchema();
    const store = await openPostgres(schema.url, 20);
    await migrate(store);
    return {
      store,
      async drop() {
        await store.close();
        await schema.drop();
      },
    };
  },
};

/** The store kinds to run against: PGlite always, PostgreSQL when it answers. */
export async function storeKinds(): Promise<StoreKind[]> {
  return (await postgresAvailable()) ? [PGLITE, POSTGRES] : [PGLITE];
}

/** The side store's services over `store`, as the root makes them over `overrides` of the test configuration. */
export function sideOf(store: SqlStore, overrides: Partial<Config> = {}, clock?: Clock) {
  return compose(testConfig(overrides), { store, clock }).side();
}
