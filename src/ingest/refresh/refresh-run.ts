import type { ChangeEvent } from '../../domain/changes.js';
import type { SourceConfig } from '../../domain/sources.js';
import type { GraphTx } from '../../graph/graph-port.js';
import * as changeEvents from '../change-events.js';
import type { RefreshRepo } from './refresh-repo.js';

// A refresh run's state as its steps (refresh.ts, refresh-links.ts) share it.

/** A row (or a link of it) the run refused, with why. */
export interface Reject {
  link?: boolean;
  file: string;
  line: number;
  reason: string;
  detail: string;
  /** The row as read; absent for a link rejected once the files were read (writeRejects reads it again). */
  raw?: string;
}

/** One attempt of a run (an engine may retry the whole run): its unit of work and what it counts. */
export interface Run {
  repo: RefreshRepo;
  t: GraphTx;
  source: SourceConfig;
  state: string;
  snapshot: string;
  full: boolean;
  counts: { rows: number; inserted: number; updated: number; unchanged: number; left: number; opened: number; closed: number };
  rejects: Reject[];
  /** The run's change events not staged yet, when a change log keeps them. */
  events?: ChangeEvent[];
  /** The run as its change log records it, and how many of its events are staged. */
  log: { id: string; source: string; state: string; snapshot_date: string; staged: number; part: number };
  ctx: changeEvents.RunContext;
  /** The state had no credentials before: one summary event instead of one per change. */
  firstLoad: boolean;
}

export const reject = (run: Run, r: Omit<Reject, 'reason'> & { reason?: string; link?: boolean }) => run.rejects.push({ reason: r.reason ?? r.detail, ...r });

/** Change events are staged in parts of this many: a run holds at most about a part of them. */
export const STAGE_EVENTS = 5000;

/** Stages the events held once they make a part (`last`: whatever is held, and the run even without events). */
export async function stageEvents(run: Run, last = false) {
  const { events, log } = run;
  const { changes } = run.repo;
  if (!changes || !events || (!last && events.length < log.part) || (last && log.staged > 0 && !events.length)) return;
  // Emptied in place: writeCredentials holds the same array.
  const part = events.splice(0);
  changeEvents.withNumbers(part, await run.repo.numbers(run.t, changeEvents.credentialIds(part)));
  await changes.stage(log, part, log.staged);
  log.staged += part.length;
}
