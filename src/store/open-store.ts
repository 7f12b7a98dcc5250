import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { migrate } from './migrations.js';
import { openPglite } from './pglite-store.js';
import type { SqlStore } from './sql-store.js';

// Light to load (pg only when DATABASE_URL is set): the server starts opening its store from
// main.ts while the rest of its code loads.

export type StoreConfig = Pick<Config, 'DATABASE_URL' | 'DATABASE_POOL_SIZE'> & { pglitePath?: string };

/**
 * Opens the side store (PostgreSQL when DATABASE_URL is set, else PGlite: at pglitePath, or in
 * memory) and migrates it; `logger` hears what was created and applied.
 */
export async function openStore(config: StoreConfig, logger?: Pick<Logger, 'info'>): Promise<SqlStore> {
  const started = performance.now();
  const created = !config.DATABASE_URL && config.pglitePath !== undefined && !fs.existsSync(path.join(config.pglitePath, 'PG_VERSION'));
  const store = config.DATABASE_URL
    ? await (await import('./postgres-store.js')).openPostgres(config.DATABASE_URL, config.DATABASE_POOL_SIZE)
    : await openPglite(config.pglitePath);
  let applied: string[];
  try {
    applied = await migrate(store);
  } catch (err) {
    await store.close();
    throw err;
  }
  const what = config.DATABASE_URL ? 'PostgreSQL' : config.pglitePath ? `PGlite in ${config.pglitePath}` : 'PGlite in memory';
  logger?.info(
    { store: store.kind, created, migrations_applied: applied.length, elapsed_ms: Math.round(performance.now() - started) },
    `accounts store ${created ? 'created' : 'opened'} (${what})${applied.length ? `, ${applied.length} migration${applied.length === 1 ? '' : 's'} applied` : ''}`,
  );
  return store;
}

/** The template a new embedded store is copied from, made if missing (npm install's postinstall). */
export { prepareTemplate } from './pglite-store.js';
