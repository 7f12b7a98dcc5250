import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { DataDirLockedError, StoreError } from '../errors.js';
import { migrate } from './migrations.js';
import { ensureTemplate, initdb, POSTGRESQL_CONF } from './pglite-template.js';
import type { SqlStore } from './sql-store.js';

/** Folders this process has open (a lock file naming our own pid is otherwise taken as stale). */
const openHere = new Set<string>();

/**
 * PGlite does not guard its folder: two processes opening it corrupt it. A lock file with the
 * owner's pid keeps it to one; a lock left by a dead process is taken over, and so is one naming
 * this very pid but not opened here (in a container the server is pid 1 at every start).
 */
function lockFolder(folder: string): () => void {
  if (openHere.has(folder)) throw new DataDirLockedError(folder, 'the accounts store');
  const lockPath = `${folder}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      openHere.add(folder);
      return () => {
        openHere.delete(folder);
        fs.rmSync(lockPath, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(fs.readFileSync(lockPath, 'utf8'));
      if (owner && owner !== process.pid && isAlive(owner)) throw new DataDirLockedError(folder, 'the accounts store');
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(folder, 'the accounts store');
}

/** Whether a process with this pid runs (EPERM: it does, as another user's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const WORKER = new URL('./pglite-worker.mjs', import.meta.url);
const PGLITE_DIST = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));

/**
 * PGlite's WASM compiled once a process: each store's worker gets the module (compiled code is
 * shared between threads) instead of compiling it again (decision 0031). Its bundle is read per
 * open and handed over, not kept.
 */
let compiled: Promise<WebAssembly.Module> | undefined;
async function pgliteArtifacts() {
  const module = (compiled ??= fs.promises.readFile(path.join(PGLITE_DIST, 'pglite.wasm')).then((bytes) => WebAssembly.compile(bytes)));
  const b = await fs.promises.readFile(path.join(PGLITE_DIST, 'pglite.data'));
  return { module: await module, bundle: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) };
}

/** The template new stores are copied from (pglite-template.ts), made if it is missing; resolves with its folder. */
export function prepareTemplate(): Promise<string> {
  return ensureTemplate(async (making) => {
    const store = await openPglite(making);
    try {
      await migrate(store);
    } finally {
      await store.close();
    }
  });
}

/** A new cluster in `folder`: a copy of the template, else initdb's own. */
async function createCluster(folder: string): Promise<void> {
  if (fs.existsSync(path.join(folder, 'PG_VERSION'))) return;
  let template: string | undefined;
  try {
    template = await prepareTemplate();
  } catch {
    // A cache that cannot be written (a read-only install): this store is made on its own.
  }
  if (template) fs.cpSync(template, folder, { recursive: true });
  else await initdb(folder);
}

export interface PgliteStore extends SqlStore {
  /** The whole cluster as a tarball, which an in-memory store can start from (`openPglite(undefined, {from})`). */
  dump(): Promise<Uint8Array>;
}

/**
 * Opens PGlite in `folder`, or in memory when folder is undefined (tests). An in-memory store
 * given `from` starts as a copy of that dump, far cheaper than creating a cluster.
 */
export async function openPglite(folder?: string, options: { from?: Uint8Array } = {}): Promise<PgliteStore> {
  let unlock = () => {};
  if (folder) {
    fs.mkdirSync(path.dirname(folder), { recursive: true });
    unlock = lockFolder(folder);
  }
  // The database runs in a worker thread: PGlite is WASM that runs on the thread calling it, and
  // on the server's thread each write (the verification log writes on every verify) would stop requests.
  let worker: Worker;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  let nextId = 1;
  const failed = (e: { message: string; name?: string; code?: string }) => Object.assign(new Error(e.message), { name: e.name ?? 'Error', code: e.code });
  try {
    if (folder) await createCluster(folder);
    // A copy (Buffer's slice is a view), transferred to the worker.
    const from = options.from && !folder ? new Uint8Array(options.from).buffer : undefined;
    const { module, bundle } = await pgliteArtifacts();
    worker = new Worker(WORKER, { workerData: { folder, from, conf: POSTGRESQL_CONF, module, bundle }, transferList: from ? [from, bundle] : [bundle] });
    await new Promise<void>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', (m: { error?: { message: string } }) => (m.error ? reject(failed(m.error)) : resolve()));
    });
  } catch (err) {
    unlock();
    throw err;
  }
  worker.on('message', (m: { id: number; value?: unknown; error?: { message: string; name?: string; code?: string } }) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.error) w?.reject(failed(m.error));
    else w?.resolve(m.value);
  });
  // A worker that dies fails what waits on it; the store is then closed.
  let closed = false;
  worker.on('error', (err) => {
    closed = true;
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  });
  const call = <T>(message: Record<string, unknown>): Promise<T> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ ...message, id });
    });
  const wrap = (err: unknown) => (err instanceof StoreError ? err : new StoreError(`pglite: ${(err as Error).message}`, { cause: err }));
  return {
    kind: 'pglite',
    folder,
    async query(sql, params) {
      if (closed) throw new StoreError('pglite: the store is closed');
      return call<never>({ op: 'query', sql, params }).catch((err) => {
        throw wrap(err);
      });
    },
    async transaction(fn) {
      if (closed) throw new StoreError('pglite: the store is closed');
      const tx = await call<number>({ op: 'begin' }).catch((err) => {
        throw wrap(err);
      });
      let out;
      try {
        out = await fn({ query: (sql, params) => call<never>({ op: 'query', sql, params, tx }) });
      } catch (err) {
        await call({ op: 'end', tx, commit: false }).catch(() => undefined);
        // Errors thrown by the caller's own code (typed AppErrors) pass through unchanged.
        throw (err as Error).name === 'error' || (err as { code?: string }).code ? wrap(err) : err;
      }
      await call({ op: 'end', tx, commit: true }).catch((err) => {
        throw wrap(err);
      });
      return out;
    },
    async close() {
      if (closed) return;
      closed = true;
      // A transaction left open by a caller the stop interrupted would hold PGlite's close: bounded.
      await Promise.race([call({ op: 'close' }).catch(() => undefined), new Promise((r) => setTimeout(r, 5000).unref())]);
      await worker.terminate();
      for (const w of waiting.values()) w.reject(new StoreError('pglite: the store is closed'));
      waiting.clear();
      unlock();
    },
    // One connection, in the worker: the calls sent to it beyond the one it runs wait.
    connections: () => ({ max: 1, inUse: waiting.size ? 1 : 0, idle: waiting.size ? 0 : 1, waiting: Math.max(0, waiting.size - 1) }),
    async dump() {
      return new Uint8Array(await call<ArrayBuffer>({ op: 'dump' }));
    },
  };
}
