import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import neo4j, { type Driver, type ManagedTransaction, type QueryResult, type Record as Neo4jRecord, type Session } from 'neo4j-driver';
import { GraphBusyError, GraphError } from '../../errors.js';
import { timedStatement, type GraphEngine, type GraphTx, type Params, type PoolState, type Row, type StatementObserver } from '../graph-port.js';
import { goneHere } from '../process-holder.js';
import { pin, pinned } from '../read-scope.js';
import { exportInWorker, writeExport } from './export-file.js';
import { neo4jReaders } from './readers.js';
import { normalizeNeo4jValue, rowOf, toNeo4jParams } from './values.js';

export { normalizeNeo4jValue, toNeo4jParams };

export interface Neo4jOptions {
  uri: string;
  user: string;
  password: string;
  database: string;
  poolSize: number;
  acquisitionTimeoutMs: number;
  connectionTimeoutMs: number;
  queryTimeoutMs: number;
  maxRetryTimeMs: number;
}

function rows(result: QueryResult): Row[] {
  const records: (Neo4jRecord | undefined)[] = result.records;
  const out = new Array<Row>(records.length);
  for (let i = 0; i < records.length; i++) {
    out[i] = rowOf(records[i]!);
    // Let go once converted: a large result is not held twice.
    records[i] = undefined;
  }
  return out;
}

const TRANSIENT_CODES = /^Neo\.TransientError\.|ServiceUnavailable|SessionExpired|Neo\.ClientError\.Transaction\.TransactionTimedOut/;
/** Tries of a schema statement that failed transiently (applySchema). */
const SCHEMA_ATTEMPTS = 5;

/**
 * Neo4j's memory guard stopped a transaction ("... would use more than the limit 1.4 GiB ...
 * db.memory.transaction.total.max threshold reached"): what it means and what to change. A read
 * is a page: one stopped by the pool every transaction shares found it held by a running import
 * or refresh, so it is worth retrying (503).
 */
function memoryLimit(message: string, reading: boolean): GraphError | undefined {
  const setting = /(db\.memory\.transaction\.(?:total\.)?max|dbms\.memory\.transaction\.total\.max)/.exec(message)?.[1];
  if (!setting) return undefined;
  const limit = /the limit ([\d.]+ \w+)/.exec(message)?.[1] ?? 'its current value';
  const raise = `${setting} (within the heap, server.memory.heap.max_size) in neo4j.conf or as the NEO4J_${setting.replace(/\./g, '_')} setting of the container`;
  if (reading) {
    const pool = setting.includes('total');
    const why = pool ? `the running transactions (an import or a refresh) hold what ${setting} allows` : `it needed more than ${setting} allows`;
    return new GraphError(`Neo4j had no transaction memory for a read: ${why} (currently ${limit}). ${pool ? 'Retry shortly; if it lasts, raise' : 'Raise'} ${raise}.`, pool);
  }
  return new GraphError(
    `Neo4j stopped the write: one transaction needed more memory than ${setting} allows (currently ${limit}). ` +
      `A canonical import (npm run import) writes its unit in one transaction, which grows with its files (a refresh, npm run ingest, commits in batches): raise ${raise}, ` +
      'then run it again (the transaction was rolled back); a first national load into an empty store goes through the offline importer (docs/importing.md).',
    false,
  );
}

function translate(err: unknown, reading = false): GraphError {
  if (err instanceof GraphError) return err;
  const memory = memoryLimit((err as Error).message ?? '', reading);
  if (memory) return memory;
  // The pool had no connection within its acquisition timeout: more requests than Neo4j serves.
  if (/^Connection acquisition timed out/.test((err as Error).message ?? '')) return new GraphBusyError(`neo4j: ${(err as Error).message}`);
  const code = String((err as { code?: string }).code ?? '');
  return new GraphError(`neo4j query failed: ${(err as Error).message}`, TRANSIENT_CODES.test(code), { cause: err });
}

/** Neo4j's engine: the graph port, and writes in steps that commit one by one. */
export interface Neo4jEngine extends GraphEngine {
  /**
   * Statements that each commit on their own (what one holds in memory is its own batch), and
   * `transaction` for a group that commits together: a refresh that readers see whole by its
   * versions (versions.ts). Serialized with this process's other writes.
   */
  writeSteps<T>(fn: (t: GraphTx, transaction: <U>(work: (tx: GraphTx) => Promise<U>) => Promise<U>) => Promise<T>): Promise<T>;
  /** One auto-commit write on a session of its own, beside whatever runs (a running unit's heartbeat). */
  writeNow(query: string, params?: Params): Promise<Row[]>;
  /**
   * Streams every row of a large read to a new file in the bulk dialect, `columns` in order and no
   * header (read it back with readBulkFile); the file is the caller's to remove. No timeout. From
   * about `rows` rows on, in a worker thread with a driver of its own (export-file.ts).
   */
  exportFile(query: string, params: Params, columns: readonly string[], rows?: number): Promise<string>;
  /** `listener` runs after each write unit of this process commits. */
  onWrite(listener: () => void): void;
  /** Runs `work`, which reads at generation `g` (explicitly): the versions it reads stay until it ends (readers.ts). */
  holding<T>(g: number, work: () => Promise<T>): Promise<T>;
  /** Holds generation `g` for `key` until held at another or released (readers.ts `hold`); resolves once reported. */
  hold(key: string, g: number | undefined): Promise<void>;
}

/** The read-scope key of the generation a request's reads see (read-scope.ts). */
export const GENERATION_PIN = 'neo4j.generation';

/** One driver per process; writes go through managed transactions, reads auto-commit (both retried when transient). */
/**
 * The driver's pool as it stands. neo4j-driver has no public pool statistics: these are the fields
 * of its pool (neo4j-driver-core internal/pool/pool.js, 6.x), read defensively; the pool's size
 * alone where they are missing (test/api/metrics.both.test.ts checks that they are there).
 */
function poolState(driver: Driver, max: number): PoolState {
  type Pool = { _pools?: Record<string, { length: number }>; _activeResourceCounts?: Record<string, number>; _acquireRequests?: Record<string, { length: number }> };
  const pool = (driver as unknown as { _connectionProvider?: { _connectionPool?: Pool } })._connectionProvider?._connectionPool;
  const sum = (o: Record<string, number | { length: number }> | undefined) =>
    Object.values(o ?? {}).reduce<number>((n, v) => n + (typeof v === 'number' ? v : (v?.length ?? 0)), 0);
  return { max, inUse: sum(pool?._activeResourceCounts), idle: sum(pool?._pools), waiting: sum(pool?._acquireRequests) };
}

/** Exports expected to hold fewer rows are read on this thread (export-file.ts). */
const IN_THREAD_ROWS = 20_000;

/** Exports (exportFile) are named after their process: those of processes gone are removed at open. */
export const EXPORT_FILE_PREFIX = 'lvs-neo4j-export-';

function removeExportsOfGoneProcesses() {
  for (const name of fs.readdirSync(os.tmpdir())) {
    if (!name.startsWith(EXPORT_FILE_PREFIX)) continue;
    const pid = Number(name.slice(EXPORT_FILE_PREFIX.length).split('-')[0]);
    if (goneHere(`${os.hostname()}:${pid}`)) fs.rmSync(path.join(os.tmpdir(), name), { force: true, recursive: true });
  }
}

export async function openNeo4j(options: Neo4jOptions): Promise<Neo4jEngine> {
  removeExportsOfGoneProcesses();
  const driver: Driver = neo4j.driver(options.uri, neo4j.auth.basic(options.user, options.password), {
    maxConnectionPoolSize: options.poolSize,
    connectionAcquisitionTimeout: options.acquisitionTimeoutMs,
    connectionTimeout: options.connectionTimeoutMs,
    maxTransactionRetryTime: options.maxRetryTimeMs,
    disableLosslessIntegers: true,
  });
  try {
    await driver.verifyConnectivity({ database: options.database });
  } catch (err) {
    await driver.close();
    throw new Error(
      `cannot reach Neo4j at ${options.uri} (database ${options.database}) as ${options.user}: ${(err as Error).message}. ` +
        'Check NEO4J_URI, NEO4J_USER, NEO4J_PASSWORD and NEO4J_DATABASE, or unset NEO4J_URI to use the embedded engine.',
    );
  }
  const txConfig = { timeout: options.queryTimeoutMs };
  // Writes are serialized in this process, as the port promises: concurrent imports would race.
  let writeChain: Promise<unknown> = Promise.resolve();
  const serialized = <T>(work: () => Promise<T>): Promise<T> => {
    const next = writeChain.then(work, work);
    writeChain = next.catch(() => undefined);
    return next;
  };
  // Who hears each write statement's time (observeWrites).
  let observe: StatementObserver | undefined;
  const run = (tx: ManagedTransaction, query: string, params?: Params) =>
    timedStatement(observe, query, async () => rows(await tx.run(query, toNeo4jParams(params ?? {}) as Record<string, unknown>)));
  const session = (mode: 'READ' | 'WRITE') =>
    driver.session({ database: options.database, defaultAccessMode: mode === 'READ' ? neo4j.session.READ : neo4j.session.WRITE });

  // A closed driver's sessions wait instead of failing: a closed engine refuses at once, as a
  // transient failure (503), like LadybugDB's.
  let closed = false;
  const open = () => {
    if (closed) throw new GraphError('neo4j: the graph engine is closed', true);
  };

  // The server enforces the query timeout only while it runs: one that stalls (shutting down, or
  // unreachable mid-query) would hold a request without end. Past it the caller gets a transient
  // failure (503); the abandoned work settles in the background.
  const deadline = <T>(work: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new GraphError(`neo4j: no answer within ${options.queryTimeoutMs} ms`, true)), options.queryTimeoutMs);
    });
    return Promise.race([work, late]).finally(() => clearTimeout(timer));
  };

  // The driver formats a stack trace for every statement it runs, for its errors: 0.7 ms of a
  // search page's CPU with tsx's source maps. A read keeps none (its error still says what failed).
  const withoutStack = <T>(run: () => T): T => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      return run();
    } finally {
      Error.stackTraceLimit = limit;
    }
  };

  // A read is one statement: an auto-commit transaction sends it in one round trip, where a
  // managed one adds BEGIN and COMMIT and costs twice the CPU (docs/decisions/0005). Retryable
  // failures are retried for as long as a managed transaction would be.
  const readStatement = (query: string, params: Params): Promise<Row[]> => {
    const attempt = async () => {
      const s = session('READ');
      try {
        return rows(await withoutStack(() => s.run(query, toNeo4jParams(params ?? {}) as Record<string, unknown>, txConfig)));
      } finally {
        await s.close();
      }
    };
    const work = (async () => {
      const until = Date.now() + options.maxRetryTimeMs;
      for (let delay = 50; ; delay *= 2) {
        try {
          return await attempt();
        } catch (err) {
          if (closed || !neo4j.isRetryableError(err) || Date.now() + delay > until) throw translate(err, true);
          await new Promise((r) => setTimeout(r, delay));
        }
      }
    })();
    return deadline(work);
  };

  // The generation readers see, as this process last saw it published, and what this process still
  // reads, reported to the graph (readers.ts). A write here makes the next read look again, so a
  // read after this process publishes sees what it published.
  const readers = neo4jReaders((query, params) => engine.writeNow(query, params), GENERATION_PIN);
  const listeners: (() => void)[] = [];
  const written = <T>(out: T): T => {
    readers.forget();
    for (const l of listeners) l();
    return out;
  };

  const engine: Neo4jEngine = {
    name: 'neo4j',
    embedded: false,
    connections: () => poolState(driver, options.poolSize),
    async read(query, params) {
      open();
      if (params && 'g' in params) return readStatement(query, params);
      // Every read sees the versions of the published generation ($g), one per request (read-scope.ts),
      // held until it ends so that what it reads stays (readers.ts).
      const g = await pinned(GENERATION_PIN, readers.published);
      pin(GENERATION_PIN, g);
      return readers.holding(g, () => readStatement(query, { ...params, g }));
    },
    writeTransaction: (fn) => {
      const work = async () => {
        open();
        const s = session('WRITE');
        try {
          // The driver retries the whole function on transient errors: every write is idempotent.
          return written(await s.executeWrite((tx) => fn({ run: (q, p) => run(tx, q, p) } satisfies GraphTx), txConfig));
        } catch (err) {
          throw err instanceof Error && !(err as { code?: string }).code ? err : translate(err);
        } finally {
          await s.close();
        }
      };
      return serialized(work);
    },
    // Neo4j holds a large transaction on its heap: a refresh is one explicit transaction, with no
    // timeout and no automatic retry (a state file takes minutes; rerunning it is the operator's call).
    writeLarge: (fn) => {
      const work = async () => {
        open();
        const s = session('WRITE');
        const tx = s.beginTransaction({ timeout: 0 });
        try {
          const out = await fn({ run: (q, p) => timedStatement(observe, q, async () => rows(await tx.run(q, toNeo4jParams(p ?? {}) as Record<string, unknown>))) });
          await tx.commit();
          return written(out);
        } catch (err) {
          if (tx.isOpen()) await tx.rollback().catch(() => undefined);
          throw err instanceof Error && !(err as { code?: string }).code ? err : translate(err);
        } finally {
          await s.close();
        }
      };
      return serialized(work);
    },
    writeSteps: (fn) => {
      const work = async () => {
        open();
        // A session per statement, chained by bookmarks: a session keeps every auto-commit result
        // (and so its parameters) until it closes, which over a run would hold the whole file.
        const bookmarkManager = neo4j.bookmarkManager();
        const stepSession = () => driver.session({ database: options.database, defaultAccessMode: neo4j.session.WRITE, bookmarkManager });
        const inSession = async <U>(work: (s: Session) => Promise<U>): Promise<U> => {
          const s = stepSession();
          try {
            return await work(s);
          } finally {
            await s.close();
          }
        };
        const fail = (err: unknown) => Promise.reject(err instanceof Error && !(err as { code?: string }).code ? err : translate(err));
        // One statement at a time, whoever asks (a unit may read while it writes).
        let queue: Promise<unknown> = Promise.resolve();
        const queued = <U>(work: () => Promise<U>): Promise<U> => {
          const next = queue.then(work, work);
          queue = next.catch(() => undefined);
          return next;
        };
        try {
          // A step may run long (a state's counts, a batched delete): no timeout, as writeLarge.
          // A streamed read holds the session until its rows are taken (the driver pulls them as they are).
          async function* stream(q: string, p?: Params): AsyncIterable<Row> {
            let release!: () => void;
            const taken = new Promise<void>((resolve) => (release = resolve));
            await new Promise<void>((turn) => void queued(() => (turn(), taken)));
            const s = stepSession();
            // Timed until its last row is taken: the reader's own work counts in.
            const started = performance.now();
            try {
              for await (const record of s.run(q, toNeo4jParams(p ?? {}) as Record<string, unknown>, { timeout: 0 })) yield rowOf(record);
            } catch (err) {
              await fail(err);
            } finally {
              observe?.(q, performance.now() - started);
              release();
              await s.close();
            }
          }
          const step: GraphTx = {
            run: (q, p) => queued(() => timedStatement(observe, q, () => inSession(async (s) => rows(await s.run(q, toNeo4jParams(p ?? {}) as Record<string, unknown>, { timeout: 0 }).catch(fail))))),
            stream,
          };
          const transaction = <U>(f: (tx: GraphTx) => Promise<U>) =>
            queued(() => inSession((s) => s.executeWrite((tx) => f({ run: (q, p) => run(tx, q, p) }), { timeout: 0 }).catch(fail)));
          return await fn(step, transaction);
        } finally {
          // What the steps committed is written, whether or not the unit ended well.
          written(undefined);
        }
      };
      return serialized(work);
    },
    async writeNow(query, params) {
      open();
      const s = session('WRITE');
      try {
        return await timedStatement(observe, query, async () => rows(await s.run(query, toNeo4jParams(params ?? {}) as Record<string, unknown>, txConfig)));
      } catch (err) {
        throw translate(err);
      } finally {
        await s.close();
      }
    },
    observeWrites(observer) {
      observe = observer;
    },
    async exportFile(query, params, columns, rows = Infinity) {
      open();
      const file = path.join(os.tmpdir(), `${EXPORT_FILE_PREFIX}${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.csv`);
      // A worker with its own driver costs about half a second of CPU to start: small exports run here.
      if (rows < IN_THREAD_ROWS) {
        const s = session('READ');
        try {
          await writeExport(s, { query, params, columns, file });
        } catch (err) {
          throw err instanceof Error && !(err as { code?: string }).code ? err : translate(err);
        } finally {
          await s.close();
        }
      } else {
        const connection = { uri: options.uri, user: options.user, password: options.password, database: options.database };
        await exportInWorker({ connection, query, params, columns, file });
      }
      return file;
    },
    holding: (g, work) => readers.holding(g, work),
    hold: (key, g) => readers.hold(key, g),
    onWrite: (listener) => void listeners.push(listener),
    async applySchema(statements) {
      // A run of index commands goes in one transaction: Neo4j populates the indexes it creates
      // together, in the background (decision 0032). The rest run one per auto-commit transaction
      // (a constraint, or a statement over data).
      const s = session('WRITE');
      // Processes starting together on a store from before a schema change each make it: one can
      // deadlock on the label's lock (transient); run again, the statement finds it made.
      const autoCommit = async (statement: string) => {
        for (let attempt = 1; ; attempt++) {
          try {
            return await s.run(statement);
          } catch (err) {
            if (attempt >= SCHEMA_ATTEMPTS || !TRANSIENT_CODES.test((err as { code?: string }).code ?? '')) throw err;
            await new Promise((r) => setTimeout(r, 100 * attempt + Math.random() * 100));
          }
        }
      };
      try {
        const isIndex = (statement: string) => /^(CREATE|DROP)\s+INDEX\b/i.test(statement);
        for (let i = 0; i < statements.length; ) {
          if (!isIndex(statements[i])) {
            await autoCommit(statements[i++]);
            continue;
          }
          const run: string[] = [];
          while (i < statements.length && isIndex(statements[i])) run.push(statements[i++]);
          await s.executeWrite(async (t) => {
            for (const statement of run) await t.run(statement);
          });
        }
        // An index is created populating: no query may run before every one is online.
        await s.run('CALL db.awaitIndexes($seconds)', { seconds: neo4j.int(300) });
      } catch (err) {
        throw translate(err);
      } finally {
        await s.close();
      }
    },
    async ping() {
      open();
      await deadline(driver.verifyConnectivity({ database: options.database }).catch((err) => Promise.reject(translate(err))));
    },
    close: async () => {
      if (!closed) await readers.leave();
      closed = true;
      await driver.close();
    },
  };
  return engine;
}
