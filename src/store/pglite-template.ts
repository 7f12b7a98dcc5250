import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { StoreError } from '../errors.js';
import { migrationFiles } from './migrations.js';

// A new accounts store starts as a copy of a template cluster (initdb, then every migration) kept
// under node_modules/.cache: initdb costs about 6 s and the migrations 1 s, a copy a tenth of one.
// The template is made by the installed PGlite, so nothing binary is committed, and its name holds
// PGlite's version, the configuration and the migrations: any change makes a new one.

// The side store holds accounts, keys and usage counts: Postgres's default 128 MB of shared
// buffers inside the WASM memory cost the serving process 95-145 MB of RSS.
export const POSTGRESQL_CONF = ['shared_buffers=16MB'];

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'licensee-verification-service');
const INITDB = fileURLToPath(new URL('./pglite-initdb.mjs', import.meta.url));

/** Where the template for this PGlite, configuration and set of migrations lives. */
export function templateFolder(): string {
  const pglite = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')).version as string;
  const hash = createHash('sha256').update(JSON.stringify([POSTGRESQL_CONF, migrationFiles()])).digest('hex').slice(0, 12);
  return path.join(CACHE, `pglite-${pglite}-${hash}`);
}

/**
 * Creates the cluster in a child process, as PostgreSQL runs initdb as a program of its own:
 * PGlite's initdb holds three WASM instances at once (about 750 MB), a peak the server would keep.
 */
export async function initdb(folder: string): Promise<void> {
  await promisify(execFile)(process.execPath, [INITDB, folder, JSON.stringify(POSTGRESQL_CONF)]).catch((err: Error & { stderr?: string }) => {
    throw new StoreError(`pglite: could not create the accounts store in ${folder}: ${err.stderr || err.message}`, { cause: err });
  });
}

/**
 * Makes the template if it is missing (`migrated` applies the migrations to a folder); resolves
 * with its folder. Processes that race each make their own and the first rename wins.
 */
export async function ensureTemplate(migrated: (folder: string) => Promise<void>): Promise<string> {
  const template = templateFolder();
  if (fs.existsSync(path.join(template, 'PG_VERSION'))) return template;
  fs.mkdirSync(CACHE, { recursive: true });
  const making = `${template}.${process.pid}.${Date.now()}`;
  try {
    await initdb(making);
    await migrated(making);
    fs.renameSync(making, template);
    // Templates of other versions go; a copy being made by another process stays.
    for (const old of fs.readdirSync(CACHE)) {
      if (/^pglite-[\d.]+-[0-9a-f]{12}$/.test(old) && path.join(CACHE, old) !== template) fs.rmSync(path.join(CACHE, old), { recursive: true, force: true });
    }
  } catch (err) {
    if (!fs.existsSync(path.join(template, 'PG_VERSION'))) throw err;
  } finally {
    fs.rmSync(making, { recursive: true, force: true });
  }
  return template;
}
