import { Worker } from 'node:worker_threads';

/**
 * Where the journal's segment files are written, synced and removed: each call runs after the
 * ones before it, and resolves once done (an append once its bytes are on the disk).
 */
export interface JournalFiles {
  /** Later appends go to `file` (created if need be); the file open before is closed. */
  open(file: string): Promise<void>;
  /** Writes `text` at the end of the open file and syncs it (fdatasync). */
  append(text: Uint8Array): Promise<void>;
  remove(file: string): Promise<void>;
  /** Closes the open file and stops. */
  close(): Promise<void>;
}

/**
 * The journal's files in a worker thread of their own (journal-writer.mjs): not the event loop,
 * which a sync stalled behind a refresh's writes held for up to 400 ms at a time, nor the libuv pool
 * that LadybugDB runs its queries in. It keeps the process alive only while a call is in flight.
 */
export function workerFiles(): JournalFiles {
  const worker = new Worker(new URL('./journal-writer.mjs', import.meta.url));
  worker.unref();
  const calls = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  let next = 0;
  let failed: Error | undefined;
  const settle = (id: number, error?: Error) => {
    const call = calls.get(id);
    calls.delete(id);
    if (!calls.size) worker.unref();
    if (error) call?.reject(error);
    else call?.resolve();
  };
  worker.on('message', ({ id, error }: { id: number; error?: string }) => settle(id, error === undefined ? undefined : new Error(error)));
  // A worker that dies fails what it had, and every call after.
  const die = (err: Error) => {
    failed = err;
    for (const id of [...calls.keys()]) settle(id, err);
  };
  worker.on('error', die);
  worker.on('exit', () => die(failed ?? new Error('the journal writer stopped')));
  // The text is copied, not transferred: a small Buffer shares Node's pool.
  const call = (message: { op: string; file?: string; text?: Uint8Array }) =>
    new Promise<void>((resolve, reject) => {
      if (failed) return reject(failed);
      const id = next++;
      if (!calls.size) worker.ref();
      calls.set(id, { resolve, reject });
      worker.postMessage({ id, ...message });
    });
  return {
    open: (file) => call({ op: 'open', file }),
    append: (text) => call({ op: 'append', text }),
    remove: (file) => call({ op: 'remove', file }),
    async close() {
      await call({ op: 'close' });
      failed = new Error('the journal writer is closed');
      await worker.terminate();
    },
  };
}
