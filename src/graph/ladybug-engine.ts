import fs from 'node:fs';
import path from 'node:path';
import lbug from '@ladybugdb/core';
import { DataDirLockedError, GraphError } from '../errors.js';
import type { GraphEngine, GraphTx, Params, Row } from './graph-port.js';

type Connection = InstanceType<typeof lbug.Connection>;
type Prepared = InstanceType<typeof lbug.PreparedStatement>;

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

// Prepared statements per connection; bounded because filter combinations vary the query text.
const PREPARED_CACHE_SIZE = 256;

/** Timeouts, interruptions and a closed database can pass; parse or binder errors cannot. */
const isTransient = (err: unknown) => /interrupt|timeout|closed|lock|buffer manager|out of memory/i.test(String((err as Error).message));

interface Slot {
  conn: Connection;
  prepared: Map<string, Prepared>;
}

export async function openLadybug(options: LadybugOptions): Promise<GraphEngine> {
  if (options.path !== ':memory:') fs.mkdirSync(path.dirname(options.path), { recursive: true });
  const db = new lbug.Database(options.path, options.bufferPoolMb * 1024 * 1024);
  try {
    await db.init();
  } catch (err) {
    if (/lock/i.test(String((err as Error).message))) throw new DataDirLockedError(options.path);
    throw err;
  }
  const makeSlot = async (): Promise<Slot> => {
    const conn = new lbug.Connection(db);
    await conn.init();
    conn.setQueryTimeout(options.queryTimeoutMs);
    return { conn, prepared: new Map() };
  };
  const readers: Slot[] = [];
  for (let i = 0; i < options.connections; i++) readers.push(await makeSlot());
  const writer = await makeSlot();
  const idle = [...readers];
  const waiting: ((slot: Slot) => void)[] = [];
  let writeChain: Promise<unknown> = Promise.resolve();
  let closed = false;

  const acquire = () =>
    new Promise<Slot>((resolve) => {
      const slot = idle.pop();
      if (slot) resolve(slot);
      else waiting.push(resolve);
    });
  const release = (slot: Slot) => {
    const next = waiting.shift();
    if (next) next(slot);
    else idle.push(slot);
  };

  const exec = async (slot: Slot, query: string, params: Params = {}): Promise<Row[]> => {
    if (closed) throw new GraphError('graph engine is closed', true);
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
      const results = Array.isArray(result) ? result : [result];
      const rows: Row[] = [];
      for (const r of results) {
        for (const row of await r.getAll()) rows.push(normalizeRow(row as Record<string, unknown>));
        r.close();
      }
      return rows;
    } catch (err) {
      throw new GraphError(`ladybug query failed: ${(err as Error).message}`, isTransient(err), { cause: err });
    }
  };

  // Transaction control and DDL cannot be prepared; they run as plain statements.
  const control = async (slot: Slot, statement: string): Promise<void> => {
    try {
      const result = await slot.conn.query(statement);
      for (const r of Array.isArray(result) ? result : [result]) r.close();
    } catch (err) {
      throw new GraphError(`ladybug statement failed: ${(err as Error).message}`, isTransient(err), { cause: err });
    }
  };

  const serializeWrite = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = writeChain.then(fn, fn);
    writeChain = run.catch(() => undefined);
    return run;
  };

  const read = async (query: string, params?: Params): Promise<Row[]> => {
    const slot = await acquire();
    try {
      return await exec(slot, query, params);
    } finally {
      release(slot);
    }
  };

  return {
    name: 'ladybug',
    read,
    writeTransaction(fn) {
      return serializeWrite(async () => {
        await control(writer, 'BEGIN TRANSACTION');
        const tx: GraphTx = { run: (q, p) => exec(writer, q, p) };
        try {
          const out = await fn(tx);
          await control(writer, 'COMMIT');
          return out;
        } catch (err) {
          await control(writer, 'ROLLBACK').catch(() => undefined);
          throw err;
        }
      });
    },
    applySchema(statements) {
      return serializeWrite(async () => {
        for (const s of statements) await control(writer, s);
      });
    },
    async ping() {
      await read('RETURN 1 AS ok');
    },
    async close() {
      if (closed) return;
      await writeChain;
      closed = true;
      for (const slot of [...readers, writer]) await slot.conn.close();
      await db.close();
    },
  };
}
