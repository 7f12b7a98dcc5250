// The side store's PGlite, in a worker thread of its own (see pglite-store.ts): the database runs
// as WASM on the thread that calls it, and on the server's thread every write would stop requests.
// Messages: {id, op: 'query' | 'begin' | 'end' | 'dump' | 'close', ...}; answers {id, value} or {id, error}.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const { folder, from, conf, module, bundle } = workerData;
// PGlite reads its bundle and a tarball through arrayBuffer(): a Blob over bytes already here would
// copy them again in small chunks, so the bytes go as they are.
const asFile = (buffer) => ({ type: '', arrayBuffer: async () => buffer });
// The WASM module compiled once in the opening thread, and the bundle it read (pglite-store.ts).
const options = { postgresqlconf: conf, pgliteWasmModule: module, fsBundle: asFile(bundle) };
const db = from ? new PGlite({ ...options, loadDataDir: asFile(from) }) : new PGlite(folder, options);
/** Open transactions by id: their queries, and how each ends. */
const open = new Map();
let nextTx = 1;

const failure = (err) => ({ message: err?.message ?? String(err), name: err?.name, code: err?.code });
const reply = (id, work) =>
  work.then(
    (value) => parentPort.postMessage({ id, value }),
    (err) => parentPort.postMessage({ id, error: failure(err) }),
  );
const ROLLBACK = Symbol('rollback');

function begin(id) {
  const tx = nextTx++;
  let ended;
  const ending = new Promise((resolve) => (ended = resolve));
  const done = db.transaction(async (t) => {
    open.set(tx, { t, ended });
    parentPort.postMessage({ id, value: tx });
    // Rolled back by throwing, as PGlite's transaction() does on a failure.
    if ((await ending) === ROLLBACK) throw ROLLBACK;
  });
  done.then(
    () => open.get(tx)?.settled?.({}),
    (err) => open.get(tx)?.settled?.(err === ROLLBACK ? {} : { error: failure(err) }),
  );
  // A failure before the transaction began (the database closed) answers the begin itself.
  done.catch((err) => !open.has(tx) && parentPort.postMessage({ id, error: failure(err) }));
}

function end(id, tx, commit) {
  const entry = open.get(tx);
  if (!entry) return parentPort.postMessage({ id, error: { message: `no open transaction ${tx}` } });
  entry.settled = (outcome) => {
    open.delete(tx);
    parentPort.postMessage({ id, ...(outcome.error ? { error: outcome.error } : { value: null }) });
  };
  entry.ended(commit ? undefined : ROLLBACK);
}

await db.waitReady.catch((err) => parentPort.postMessage({ id: 0, error: failure(err) }));
parentPort.postMessage({ id: 0, value: 'ready' });
parentPort.on('message', (m) => {
  if (m.op === 'query') {
    const target = m.tx ? open.get(m.tx)?.t : db;
    if (!target) return parentPort.postMessage({ id: m.id, error: { message: `no open transaction ${m.tx}` } });
    return reply(m.id, target.query(m.sql, m.params).then((r) => r.rows));
  }
  if (m.op === 'begin') return begin(m.id);
  if (m.op === 'end') return end(m.id, m.tx, m.commit);
  if (m.op === 'dump') return reply(m.id, db.dumpDataDir('none').then((b) => b.arrayBuffer()));
  if (m.op === 'close') return reply(m.id, db.close());
});
