import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SqlStore } from './sql-store.js';

const DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
// Any fixed number: serializes concurrent starts of several servers on one PostgreSQL.
const MIGRATION_LOCK = 72_410_517;

export function migrationFiles(dir = DIR): { version: number; name: string; sql: string }[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 3)), name: f, sql: fs.readFileSync(`${dir}/${f}`, 'utf8') }));
}

/** Applies pending migrations in order, each in its own transaction; returns the names applied. */
export async function migrate(store: SqlStore, dir = DIR): Promise<string[]> {
  await store.query(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const applied: string[] = [];
  // Those on file already are skipped without a transaction each; the rest are checked again under the lock.
  const present = new Set((await store.query<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version));
  for (const m of migrationFiles(dir).filter((f) => !present.has(f.version))) {
    const done = await store.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      if ((await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version])).length) return false;
      for (const statement of m.sql.split(/;\s*$/m).map((s) => s.trim()).filter(Boolean)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      return true;
    });
    if (done) applied.push(m.name);
  }
  return applied;
}
