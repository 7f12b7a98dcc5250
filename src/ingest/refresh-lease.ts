/** Where a running refresh is, as its progress callback and the lease report it. */
export interface RefreshProgress {
  phase: 'reading' | 'relationships' | 'landing';
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
  /** When it last reported progress: a lease not heard from for LEASE_STALE_SECONDS is free. */
  heartbeat_at: string;
  progress: RefreshProgress;
}

/** A lease not renewed for this long belongs to a process that died: the next run takes it over. */
export const LEASE_STALE_SECONDS = 30;
/** How often a running refresh renews its lease, with its progress. */
export const LEASE_BEAT_MS = 5_000;

/**
 * One refresh per state at a time, across processes (the side store: modules/admin implements
 * it). A process that dies stops renewing, and its lease lapses after LEASE_STALE_SECONDS.
 */
export interface RefreshLeases {
  /**
   * Takes the state's lease for `run`; null when taken, else the refresh that holds it.
   * `replacing`: a run known dead (its process is gone) whose lease is taken over at once.
   */
  acquire(run: { state: string; source: string; run_id: string; holder: string }, replacing?: string): Promise<RunningRefresh | null>;
  /** Renews the lease with the run's progress. */
  beat(state: string, runId: string, progress: RefreshProgress): Promise<void>;
  release(state: string, runId: string): Promise<void>;
  /** The refreshes running now (leases renewed within LEASE_STALE_SECONDS). */
  running(): Promise<RunningRefresh[]>;
}
