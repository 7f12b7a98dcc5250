// A state refresh as it runs, as its lease in the side store holds it and the coverage reports it
// (ingest/refresh/refresh-lease.ts takes the lease).

/** Where a running refresh is, as its progress callback and the lease report it. */
export interface RefreshProgress {
  phase: 'waiting' | 'reading' | 'relationships' | 'landing';
  rows_read: number;
  bytes_read: number;
  total_bytes: number;
}

/** A refresh that holds its state's lease. */
export interface RunningRefresh {
  state: string;
  source: string;
  run_id: string;
  /** host:pid of the process running it. */
  holder: string;
  started_at: string;
  /** When it last reported progress: a lease not heard from for LEASE_STALE_SECONDS (refresh-lease.ts) is free. */
  heartbeat_at: string;
  progress: RefreshProgress;
}
