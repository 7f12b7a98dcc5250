import type { ChangeEvent } from '../../domain/changes.js';

/**
 * The changes module's port: where imports and refreshes (ingest/) record their change events
 * (the side store: changes.service.ts implements it).
 * The graph and the side store cannot commit together, so a run stages its events, lands its
 * graph unit (which records the run's id on its source), then commits them; a run whose graph
 * unit never landed has its events discarded, however many of its parts were staged. `recover` settles the runs a crash left staged.
 */
export interface ChangeLog {
  /** Stages events numbered from `from`; the first part (from 0) records the run. A run may stage in parts, in order. */
  stage(run: { id: string; source: string; state: string; snapshot_date: string }, events: ChangeEvent[], from?: number): Promise<void>;
  commit(runId: string): Promise<void>;
  discard(runId: string): Promise<void>;
  /** Settles the source's staged runs: committed when `landed` says the graph holds the run, else discarded. */
  recover(source: string, landed: (runId: string) => Promise<boolean>): Promise<void>;
}
