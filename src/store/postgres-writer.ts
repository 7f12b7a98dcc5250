import { Worker } from 'node:worker_threads';
import { StoreError } from '../errors.js';
import type { SqlTx } from './sql-store.js';

const WORKER = new URL('./postgres-writer-worker.mjs', import.meta.url);

/** Statements run on a thread of its own, one at a time: a write path that should cost the serving thread only a message. */
export interface OffThreadWriter extends SqlTx {
  close(): Promise<void>;
}

/**
 * A PostgreSQL connection in a worker thread, for writes made on every request (the verification
 * log's group commits, docs/decisions/0044): pg's protocol work and the socket's system calls
 * cost the serving thread hundreds of microseconds a statement. A worker that dies fails what
 * waits on it, and the next statement starts another.
 */
export function openPostgresWriter(url: string): OffThreadWriter {
  let worker: Worker | undefined;
  const waiting = new Map<number, { resolve: (rows: never[]) => void; reject: (err: unknown) => void }>();
  let nextId = 1;
  let closed = false;

  function start(): Worker {
    const w = new Worker(WORKER, { workerData: { url } });
    w.unref();
    w.on('message', (m: { id: number; rows?: never[]; error?: { message: string; code?: string } }) => {
      const pending = waiting.get(m.id);
      waiting.delete(m.id);
      if (m.error) pending?.reject(new StoreError(`postgres: ${m.error.message}`, { cause: Object.assign(new Error(m.error.message), { code: m.error.code }) }));
      else pending?.resolve(m.rows ?? []);
    });
    const lost = (err: unknown) => {
      if (worker === w) worker = undefined;
      for (const p of waiting.values()) p.reject(new StoreError(`postgres: the writer's thread stopped (${(err as Error)?.message ?? err})`, { cause: err }));
      waiting.clear();
    };
    w.on('error', lost);
    w.on('exit', (code) => lost(new Error(`exit ${code}`)));
    return w;
  }

  return {
    query<T>(sql: string, params?: unknown[]): Promise<T[]> {
      if (closed) return Promise.reject(new StoreError('postgres: the writer is closed'));
      worker ??= start();
      const id = nextId++;
      const w = worker;
      return new Promise<T[]>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (rows: never[]) => void, reject });
        w.postMessage({ id, sql, params });
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      const w = worker;
      if (!w) return;
      // What was sent is answered first: the worker handles messages in order.
      await new Promise<void>((resolve) => {
        w.on('message', (m: { id: number }) => m.id === 0 && resolve());
        w.once('exit', () => resolve());
        w.postMessage({ id: 0 });
      });
      await w.terminate();
    },
  };
}
