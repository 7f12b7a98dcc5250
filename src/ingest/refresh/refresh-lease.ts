import { randomUUID } from 'node:crypto';
import { ConflictError } from '../../errors.js';
import { goneHere, thisProcess } from '../../graph/process-holder.js';
import type { RefreshProgress, RunningRefresh } from '../../domain/refreshes.js';

/** A lease not renewed for this long belongs to a process that died: the next run takes it over. */
export const LEASE_STALE_SECONDS = 30;
/** How often a running refresh renews its lease, with its progress. */
export const LEASE_BEAT_MS = 5_000;

/**
 * One refresh per state at a time, across processes (the side store: operator/refresh-leases.repo.ts
 * implements it). A process that dies stops renewing, and its lease lapses after LEASE_STALE_SECONDS.
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

/** States whose refresh runs in this process (the side store's leases cover other processes). */
const runningHere = new Map<string, RunningRefresh>();

/** Refused: a refresh of the state is running, here or in another process. */
function alreadyRunning(r: RunningRefresh): ConflictError {
  return new ConflictError(
    `a refresh of ${r.state} (${r.source}) is running: run ${r.run_id} on ${r.holder}, started ${r.started_at}, ` +
      `last heard from ${r.heartbeat_at} (${r.progress.phase}, ${r.progress.rows_read.toLocaleString('en-US')} rows read); try again when it ends`,
  );
}

/**
 * Runs `work` holding the state's lease (in this process, and in `leases` for the others), renewed
 * with `progress` as it goes; refused with a ConflictError naming the run that holds it.
 */
export async function leased<T>(leases: RefreshLeases | undefined, run: { state: string; source: string }, progress: RefreshProgress, work: () => Promise<T>): Promise<T> {
  const mine: RunningRefresh = { ...run, run_id: randomUUID(), holder: thisProcess(), started_at: new Date().toISOString(), heartbeat_at: new Date().toISOString(), progress };
  const here = runningHere.get(run.state);
  if (here) throw alreadyRunning({ ...here, heartbeat_at: new Date().toISOString() });
  runningHere.set(run.state, mine);
  let beat: NodeJS.Timeout | undefined;
  try {
    let holder = await leases?.acquire(mine);
    if (holder && goneHere(holder.holder)) holder = await leases!.acquire(mine, holder.run_id);
    if (holder) throw alreadyRunning(holder);
    // A failed renewal is retried at the next beat; the lease lapses only after several.
    beat = setInterval(() => void leases?.beat(run.state, mine.run_id, progress).catch(() => undefined), LEASE_BEAT_MS);
    try {
      return await work();
    } finally {
      clearInterval(beat);
      await leases?.release(run.state, mine.run_id).catch(() => undefined);
    }
  } finally {
    runningHere.delete(run.state);
  }
}
