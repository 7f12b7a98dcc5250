import pg from 'pg';
import { StoreError } from '../errors.js';
import type { SqlStore } from './sql-store.js';

const isDriverError = (err: unknown) => typeof (err as { code?: unknown }).code === 'string' || (err as Error).name === 'DatabaseError';
const wrap = (err: unknown) => new StoreError(`postgres: ${(err as Error).message}`, { cause: err });

export async function openPostgres(url: string, poolSize: number): Promise<SqlStore> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000 });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  const probe = await pool.connect().catch((err: Error) => {
    throw new Error(`cannot connect to PostgreSQL (DATABASE_URL): ${err.message}`);
  });
  probe.release();
  return {
    kind: 'postgres',
    async query(sql, params) {
      try {
        return (await pool.query(sql, params as unknown[])).rows;
      } catch (err) {
        throw wrap(err);
      }
    },
    async transaction(fn) {
      const client = await pool.connect().catch((err: unknown) => {
        throw wrap(err);
      });
      // A checked-out client has no pool listener: a connection that dies between statements
      // emits 'error', which would crash the process. It is held here and ends the transaction.
      let lost: Error | undefined;
      const onError = (err: Error) => {
        lost ??= err;
      };
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const out = await fn({ query: async (sql, params) => (await client.query(sql, params as unknown[])).rows });
        await client.query('COMMIT');
        return out;
      } catch (err) {
        if (!lost) await client.query('ROLLBACK').catch(() => undefined);
        throw lost || isDriverError(err) ? wrap(lost ?? err) : err;
      } finally {
        client.removeListener('error', onError);
        // A broken client is destroyed rather than pooled.
        client.release(lost);
      }
    },
    close: () => pool.end(),
    connections: () => ({ max: poolSize, inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}
