import type { RefreshProgress, RunningRefresh } from '../domain/refreshes.js';
import { LEASE_STALE_SECONDS, type RefreshLeases } from '../ingest/refresh/refresh-lease.js';
import type { SqlStore } from '../store/sql-store.js';

const START: RefreshProgress = { phase: 'reading', rows_read: 0, bytes_read: 0, total_bytes: 0 };
const COLUMNS = 'state, source, run_id, holder, started_at, heartbeat_at, progress';
const live = `heartbeat_at >= now() - interval '${LEASE_STALE_SECONDS} seconds'`;

type LeaseRow = Omit<RunningRefresh, 'started_at' | 'heartbeat_at' | 'progress'> & { started_at: Date; heartbeat_at: Date; progress: RefreshProgress | string };
const running = (r: LeaseRow): RunningRefresh => ({
  ...r,
  started_at: new Date(r.started_at).toISOString(),
  heartbeat_at: new Date(r.heartbeat_at).toISOString(),
  progress: typeof r.progress === 'string' ? (JSON.parse(r.progress) as RefreshProgress) : r.progress,
});

/** The refresh leases in the side store: a row per state, taken over once stale. */
export function createRefreshLeases(store: SqlStore): RefreshLeases {
  return {
    async acquire({ state, source, run_id, holder }, replacing) {
      const taken = await store.query(
        `INSERT INTO refresh_leases (${COLUMNS}) VALUES ($1, $2, $3, $4, now(), now(), $5)
         ON CONFLICT (state) DO UPDATE SET source = excluded.source, run_id = excluded.run_id, holder = excluded.holder,
           started_at = excluded.started_at, heartbeat_at = excluded.heartbeat_at, progress = excluded.progress
         WHERE NOT (refresh_leases.${live}) OR refresh_leases.run_id = $6
         RETURNING run_id`,
        [state, source, run_id, holder, JSON.stringify(START), replacing ?? null],
      );
      if (taken.length) return null;
      const [holderRow] = await store.query<LeaseRow>(`SELECT ${COLUMNS} FROM refresh_leases WHERE state = $1`, [state]);
      // Released between the two statements: taking it again is the caller's to try.
      return holderRow ? running(holderRow) : this.acquire({ state, source, run_id, holder }, replacing);
    },
    async beat(state, runId, progress) {
      await store.query('UPDATE refresh_leases SET heartbeat_at = now(), progress = $3 WHERE state = $1 AND run_id = $2', [state, runId, JSON.stringify(progress)]);
    },
    async release(state, runId) {
      await store.query('DELETE FROM refresh_leases WHERE state = $1 AND run_id = $2', [state, runId]);
    },
    async running() {
      return (await store.query<LeaseRow>(`SELECT ${COLUMNS} FROM refresh_leases WHERE ${live} ORDER BY state`)).map(running);
    },
  };
}
