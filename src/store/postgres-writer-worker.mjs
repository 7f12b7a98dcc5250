// A PostgreSQL connection on a thread of its own (postgres-writer.ts): the driver's work and the
// socket's system calls for the statements sent here leave the thread that serves requests.
// Messages: {id, sql, params}, and {id: 0} to close once what was sent is answered; answers
// {id, rows} or {id, error}, and {id: 0} when closed.
import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';

// One connection, made again on the next statement after it is lost.
const pool = new pg.Pool({ connectionString: workerData.url, max: 1, connectionTimeoutMillis: 5000 });
pool.on('error', () => undefined);
const running = new Set();

parentPort.on('message', ({ id, sql, params }) => {
  if (id === 0) {
    Promise.allSettled([...running])
      .then(() => pool.end())
      .finally(() => parentPort.postMessage({ id: 0 }));
    return;
  }
  const done = pool.query(sql, params).then(
    (r) => parentPort.postMessage({ id, rows: r.rows }),
    (err) => parentPort.postMessage({ id, error: { message: err?.message ?? String(err), code: err?.code } }),
  );
  running.add(done);
  done.finally(() => running.delete(done));
});
