import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lbug from '@ladybugdb/core';
import { DataDirLockedError, GraphError } from '../../errors.js';
import { timedStatement, type BulkFile, type GraphEngine, type GraphTx, type Params, type Row, type StatementObserver } from '../graph-port.js';
import { NOTES_SEPARATOR, csvText } from '../bulk-file.js';
import { readerPool } from './reader-pool.js';

type Connection = InstanceType<typeof lbug.Connection>;
type Prepared = InstanceType<typeof lbug.PreparedStatement>;
type Database = InstanceType<typeof lbug.Database>;

export interface LadybugOptions {
  path: string; // ':memory:' for an in-memory graph
  bufferPoolMb: number;
  connections: number;
  queryTimeoutMs: number;
}

/** Ladybug returns DATE as a JS Date at 00:00Z and sum() as bigint: make them JSON. */
export function normalizeLadybugValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(normalizeLadybugValue);
  return value;
}

function normalizeRow(row: Record<string, unknown>): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) out[k] = normalizeLadybugValue(v);
  return out;
}

const LOAD_FILE_PREFIX = 'lvs-load-';
const EXPORT_FILE_PREFIX = 'lvs-export-';

/** A path put into a statement as a literal: refuses one that could end the literal. */
function literalPath(file: string, what: string) {
  if (/['\\\n]/.test(file)) throw new GraphError(`cannot ${what} a path with quotes or backslashes: ${file}`, false);
}

/** csvText's dialect, for LOAD/COPY FROM and COPY TO. */
const DIALECT = `delim='\\u001e', quote='\\u0002', escape='\\u0002'`;

/**
 * The LOAD FROM and COPY FROM options that read csvText's dialect. The parallel reader splits the
 * file at line breaks, so a file with a line break inside a field is read serially; in parallel,
 * a 100k-row credential load takes a third less time (and less CPU time).
 */
const loadOptions = (parallel: boolean) => `header=true, ${DIALECT}, parallel=${parallel}`;

// Prepared statements per connection; bounded because filter combinations vary the query text.
const PREPARED_CACHE_SIZE = 256;

/** Timeouts, interruptions and a closed database can pass; parse or binder errors cannot. */
const isTransient = (err: unknown) => /interrupt|timeout|closed|lock|buffer manager|out of memory/i.test(String((err as Error).message));

interface Slot {
  conn: Connection;
  prepared: Map<string, Prepared>;
}

interface Opened {
  db: Database;
  readers: Slot[];
  writer: Slot;
}

/**
 * `autoCheckpoint` false: only the engine checkpoints, with no read running. LadybugDB 0.19 lets
 * a read scan pages a checkpoint is rewriting, which killed the server (SIGSEGV) when the search
 * index's export met a write unit's checkpoint (decision 0026).
 */
async function openDatabase(options: LadybugOptions, file: string, connections: number, autoCheckpoint: boolean): Promise<Opened> {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new lbug.Database(file, options.bufferPoolMb * 1024 * 1024, true, false, 0, autoCheckpoint);
  try {
    await db.init();
  } catch (err) {
    if (/lock/i.test(String((err as Error).message))) throw new DataDirLockedError(file);
    throw err;
  }
  const slot = async (): Promise<Slot> => {
    const conn = new lbug.Connection(db);
    await conn.init();
    // 0: none (the binding's default; it refuses 0 itself).
    if (options.queryTimeoutMs > 0) conn.setQueryTimeout(options.queryTimeoutMs);
    return { conn, prepared: new Map() };
  };
  const readers: Slot[] = [];
  for (let i = 0; i < connections; i++) readers.push(await slot());
  return { db, readers, writer: await slot() };
}

async function exec(slot: Slot, query: string, params: Params = {}): Promise<Row[]> {
  let stmt = slot.prepared.get(query);
  try {
    if (stmt) {
      // Re-insert to keep the map in least-recently-used order.
      slot.prepared.delete(query);
      slot.prepared.set(query, stmt);
    } else {
      stmt = await slot.conn.prepare(query);
      if (!stmt.isSuccess()) throw new Error(stmt.getErrorMessage());
      slot.prepared.set(query, stmt);
      if (slot.prepared.size > PREPARED_CACHE_SIZE) slot.prepared.delete(slot.prepared.keys().next().value!);
    }
    const result = await slot.conn.execute(stmt, params as Record<string, never>);
    const rows: Row[] = [];
    // The result is held in memory once execute resolves: read it synchronously, since the
    // binding's getAll() takes one thread-pool round trip per row.
    for (const r of Array.isArray(result) ? result : [result]) {
      for (const row of r.getAllSync()) rows.push(normalizeRow(row as Record<string, unknown>));
      r.close();
    }
    return rows;
  } catch (err) {
    throw new GraphError(`ladybug query failed: ${(err as Error).message}`, isTransient(err), { cause: err });
  }
}

// Transaction control, DDL and CHECKPOINT cannot be prepared; they run as plain statements.
async function control(slot: Slot, statement: string): Promise<void> {
  try {
    const result = await slot.conn.query(statement);
    for (const r of Array.isArray(result) ? result : [result]) r.close();
  } catch (err) {
    throw new GraphError(`ladybug statement failed: ${(err as Error).message}`, isTransient(err), { cause: err });
  }
}

/** COPY TO a new file in `dir` (see GraphEngine.exportFile); prepared, so it takes parameters. */
async function exportTo(slot: Slot, dir: string, query: string, params: Params = {}): Promise<string> {
  const file = path.join(dir, `${EXPORT_FILE_PREFIX}${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.csv`);
  literalPath(file, 'export to');
  try {
    const stmt = await slot.conn.prepare(`COPY (${query}) TO '${file}' (header=false, ${DIALECT})`);
    if (!stmt.isSuccess()) throw new Error(stmt.getErrorMessage());
    const result = await slot.conn.execute(stmt, params as Record<string, never>);
    for (const r of Array.isArray(result) ? result : [result]) r.close();
  } catch (err) {
    fs.rmSync(file, { force: true });
    throw new GraphError(`ladybug export failed: ${(err as Error).message}`, isTransient(err), { cause: err });
  }
  return file;
}

async function closeDatabase(o: Opened) {
  for (const slot of [...o.readers, o.writer]) await slot.conn.close();
  await o.db.close();
}

/**
 * The file's size and modification time, when no WAL is beside it: LadybugDB rewrites the file at
 * every checkpoint (close included) and leaves it alone at open.
 */
function fileStamp(file: string): string | undefined {
  if (file === ':memory:' || fs.existsSync(`${file}.wal`)) return undefined;
  const st = fs.statSync(file, { bigint: true });
  return `${st.size}:${st.mtimeNs}`;
}

/** A unit of writeLarge: statements commit one by one, with LadybugDB's bulk and export paths. */
export interface LadybugTx extends GraphTx {
  /**
   * Runs `query` over `rows` written to a delimited file. A `// @load` line becomes a LOAD clause
   * whose columns keep the rows' names; a `// @from` line becomes the FROM clause of a COPY, which
   * takes the columns in the rows' key order. `dates` name the DATE columns; list columns arrive
   * joined by $notes_separator.
   */
  bulk(query: string, rows: Row[], dates: string[], params?: Params): Promise<void>;
  /**
   * As bulk(), over a file a producer wrote in the bulk dialect (the header and csvRow lines of
   * bulk-file.ts), for loads too large to pass as rows. The file stays the caller's.
   */
  bulkFile(query: string, file: BulkFile, params?: Params): Promise<void>;
  /** As LadybugEngine.exportFile, seeing this unit's writes. */
  exportFile(query: string, params?: Params): Promise<string>;
  /** Writes out the pages kept in the buffer pool since the last checkpoint. */
  checkpoint(): Promise<void>;
}

/** LadybugDB's engine: the graph port with its bulk and export paths and its write notices. */
export interface LadybugEngine extends GraphEngine {
  writeLarge<T>(fn: (tx: LadybugTx) => Promise<T>): Promise<T>;
  /**
   * Writes every row of a large read-only query to a new file in the bulk dialect without a
   * header (read it back with readBulkFile), for results too large for read(). The file is the
   * caller's to remove.
   */
  exportFile(query: string, params?: Params): Promise<string>;
  /** Every write goes through this process: `listener` runs after each write unit. */
  onWrite(listener: () => void): void;
  /**
   * An identifier of the file as this process found it at open, or as close left it; equal stamps
   * mean the same content. Undefined while open after a write, when the file was not cleanly
   * closed, and for an in-memory graph.
   */
  stamp(): string | undefined;
}

export const isLadybug = (graph: GraphEngine): graph is LadybugEngine => graph.name === 'ladybug';

/** LadybugDB's own WAL size for a checkpoint, which the engine applies to its database itself. */
const CHECKPOINT_WAL_BYTES = 16 * 1024 * 1024;

export async function openLadybug(options: LadybugOptions): Promise<LadybugEngine> {
  let current = await openDatabase(options, options.path, options.connections, false);
  let stamp = fileStamp(options.path);
  // Load and export files go beside the graph file (an in-memory graph's in the temp dir).
  const filesDir = options.path === ':memory:' ? os.tmpdir() : path.dirname(options.path);
  // Exports a process killed mid-read left behind, and the folders of their parts (the search
  // index splits its export): the data dir is this process's alone now.
  if (options.path !== ':memory:') {
    for (const f of fs.readdirSync(filesDir)) if (f.startsWith(EXPORT_FILE_PREFIX)) fs.rmSync(path.join(filesDir, f), { force: true, recursive: true });
  }
  let writeChain: Promise<unknown> = Promise.resolve();
  let closed = false;
  const readers = readerPool(current.readers, () => closed);
  const read = (query: string, params?: Params): Promise<Row[]> => readers.use((slot) => exec(slot, query, params));
  const writeListeners: (() => void)[] = [];
  // Listeners hear of every write unit, failed ones too: a failure may leave some of its
  // statements applied (auto-commit on an in-memory graph), and a spare notice costs a rebuild.
  const serializeWrite = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = writeChain.then(async () => {
      if (closed) throw new GraphError('graph engine is closed', true);
      try {
        return await fn();
      } finally {
        stamp = undefined;
        for (const listener of writeListeners) listener();
      }
    });
    writeChain = run.catch(() => undefined);
    return run;
  };
  // Who hears each write statement's time (observeWrites).
  let observe: StatementObserver | undefined;
  // Invariant: the served database is checkpointed only through the readers' gate (here, at the
  // swap and at close), with no read running.
  const checkpoint = () => readers.exclusive('checkpoint', () => control(current.writer, 'CHECKPOINT'));
  const walBytes = () => (options.path === ':memory:' ? 0 : (fs.statSync(`${options.path}.wal`, { throwIfNoEntry: false })?.size ?? 0));
  const transaction = async <T>(fn: (tx: GraphTx) => Promise<T>): Promise<T> => {
    const writer = current.writer;
    await control(writer, 'BEGIN TRANSACTION');
    let out: T;
    try {
      out = await fn({ run: (q, p) => timedStatement(observe, q, () => exec(writer, q, p)) });
      await control(writer, 'COMMIT');
    } catch (err) {
      await control(writer, 'ROLLBACK').catch(() => undefined);
      throw err;
    }
    // The unit has committed: a checkpoint that fails must not report it failed (its caller would
    // discard what it staged for it); the WAL waits for the next one, a write unit's or close's.
    if (walBytes() > CHECKPOINT_WAL_BYTES) await checkpoint().catch(() => undefined);
    return out;
  };
  const loadFile = async (o: Opened, query: string, f: BulkFile, params?: Params) => {
    literalPath(f.path, 'bulk-load from');
    const options = loadOptions(!f.lineBreaks);
    // Declared types: without them LadybugDB sniffs `{...}` and `[...]` text as structs and lists.
    const header = f.columns.map((k) => `${k} ${f.dates.includes(k) ? 'DATE' : 'STRING'}`).join(', ');
    const statement = query
      .replace(/^\/\/ @load$/m, `LOAD WITH HEADERS (${header}) FROM '${f.path}' (${options})`)
      .replace(/^\/\/ @from$/m, `FROM '${f.path}' (${options})`);
    // Timed under the query file's text, not the text with the file's path written in.
    await timedStatement(observe, query, () => exec(o.writer, statement, { notes_separator: NOTES_SEPARATOR, ...params }));
  };
  /** Each statement commits on its own: large rewrites stay within the buffer pool. */
  const autoCommit = (o: Opened): LadybugTx => ({
    run: (q, p) => timedStatement(observe, q, () => exec(o.writer, q, p)),
    async bulk(query, rows, dates, params) {
      if (!rows.length) return;
      const columns = Object.keys(rows[0]);
      const file = path.join(filesDir, `${LOAD_FILE_PREFIX}${process.pid}-${Date.now()}.csv`);
      const { text, lineBreaks } = csvText(columns, rows);
      // Off the event loop: beside a refresh's copy a batch's file took a request's turn for 100 ms.
      await fs.promises.writeFile(file, text);
      try {
        await loadFile(o, query, { path: file, columns, dates, lineBreaks }, params);
      } finally {
        await fs.promises.rm(file, { force: true });
      }
    },
    bulkFile: (query, file, params) => loadFile(o, query, file, params),
    exportFile: (query, params) => timedStatement(observe, query, () => exportTo(o.writer, filesDir, query, params)),
    checkpoint: () => control(o.writer, 'CHECKPOINT'),
  });

  return {
    name: 'ladybug',
    embedded: true,
    read,
    connections: readers.state,
    gateHolds: readers.holds,
    writeTransaction: (fn) => serializeWrite(() => transaction(fn)),
    observeWrites(observer) {
      observe = observer;
    },
    /**
     * A large rewrite as one unit. LadybugDB holds a transaction's changes in its buffer pool,
     * so a refresh of hundreds of thousands of rows cannot be one transaction. Instead it is
     * applied, statement by statement, to a checkpointed copy of the database file while reads
     * go on against the original; the copy then replaces the file in one rename. A crash before
     * the rename leaves the original untouched (the next run starts a fresh copy).
     */
    writeLarge(fn) {
      return serializeWrite(async () => {
        if (options.path === ':memory:') return fn(autoCommit(current));
        const copy = `${options.path}.refresh`;
        const backup = `${options.path}.previous`;
        // Leftovers of a run killed earlier: its copy and the copy's files (WAL, shadow pages, a
        // WAL being checkpointed, which the next open of a copy would replay), load files.
        const leftovers = () =>
          fs
            .readdirSync(filesDir)
            .filter((f) => f.startsWith(path.basename(copy)) || f.startsWith(LOAD_FILE_PREFIX))
            .map((f) => path.join(filesDir, f));
        for (const f of leftovers()) fs.rmSync(f, { force: true });
        await checkpoint();
        await fs.promises.copyFile(options.path, copy);
        // No query timeout on the copy: a state's statements take minutes in a national store, and
        // no reader waits on them (the server's timeout had stopped FL's refresh inside 3M).
        // Nothing reads the copy: LadybugDB checkpoints it as it likes.
        let shadow: Opened | undefined = await openDatabase({ ...options, queryTimeoutMs: 0 }, copy, 0, true);
        try {
          // Checkpoints rewrite what the WAL holds and compete with the parsing for CPU: one per
          // quarter of the buffer pool rather than LadybugDB's default of one per 16 MB (about one
          // per bulk batch). Until a checkpoint, written pages stay in the pool, hence the bound.
          await control(shadow.writer, `CALL checkpoint_threshold=${Math.floor((options.bufferPoolMb * 1024 * 1024) / 4)}`);
          const out = await fn(autoCommit(shadow));
          await control(shadow.writer, 'CHECKPOINT');
          await closeDatabase(shadow);
          shadow = undefined;
          // Swap: hold new reads, let running ones finish, then replace the file and reopen.
          await readers.exclusive('swap', async () => {
            await closeDatabase(current);
            fs.rmSync(`${options.path}.wal`, { force: true });
            // The original is kept aside until the refreshed file opens; if it does not, it goes back.
            fs.renameSync(options.path, backup);
            try {
              fs.renameSync(copy, options.path);
              current = await openDatabase(options, options.path, options.connections, false);
            } catch (err) {
              fs.rmSync(options.path, { force: true });
              fs.renameSync(backup, options.path);
              current = await openDatabase(options, options.path, options.connections, false);
              throw err;
            }
          }, () => current.readers);
          // The replaced file goes after the gate opens, and off the event loop: unlinking a store's
          // file took 200 ms. One a crash leaves is removed by the next swap's rename over it.
          await fs.promises.rm(backup, { force: true });
          return out;
        } finally {
          if (shadow) await closeDatabase(shadow).catch(() => undefined);
          for (const f of leftovers()) fs.rmSync(f, { force: true });
        }
      });
    },
    onWrite(listener) {
      writeListeners.push(listener);
    },
    async applySchema(statements) {
      await serializeWrite(async () => {
        for (const s of statements) await control(current.writer, s);
      });
      // A schema already in place leaves the file as it was (and no WAL): the stamp still holds.
      stamp = fileStamp(options.path);
    },
    exportFile: (query, params) => readers.use((slot) => exportTo(slot, filesDir, query, params)),
    async ping() {
      await read('RETURN 1 AS ok');
    },
    stamp: () => stamp,
    async close() {
      if (closed) return;
      await writeChain;
      closed = true;
      // Closing checkpoints the file: the reads already running finish first.
      await readers.exclusive('close', () => closeDatabase(current));
      // Written or not, the file is consistent now: what a later open will find.
      stamp = fileStamp(options.path);
    },
  };
}
