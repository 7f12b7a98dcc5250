import { TRANSFER_WINDOW_DAYS } from '../../domain/changes.js';
import { daysBetween } from '../../domain/dates.js';
import type { Row } from '../../graph/graph-port.js';

// Transfers and bulk moves among a run's supervision changes (docs/changes.md, *Transfers*;
// decision 0038). Pure: refresh-links.ts gives what the diff found and numbers the events.

/** A move of at least this many affiliates, and of more than half the roster, is one bulk move. */
export const BULK_MOVE_MIN = 10;

export interface TransferFound {
  from: Row;
  to: Row;
  gap_days: number;
  /** Indexes into `ended` and `started`; `ended` is null for an end an earlier snapshot recorded. */
  ended: number | null;
  started: number;
}

export interface BulkFound {
  from: string;
  to: string;
  relationship_type: string;
  effective_from: string;
  roster_before: number;
  transfers: TransferFound[];
}

export interface TransfersInput {
  started: Row[];
  ended: Row[];
  /** The latest link of an affiliate and type that had ended before the run (affiliate|type). */
  endedBefore: Map<string, Row>;
  /** An affiliate keeps a link of this type open through the run (a second sponsor, not a move). */
  keptOpen: (affiliateId: string, relationshipType: string) => boolean;
  /** Open links of a supervisor and type before the run. */
  rosterBefore: (supervisorId: string, relationshipType: string) => number;
}

const key = (r: Row) => `${r.affiliate_id as string}|${r.relationship_type as string}`;
function add<T>(m: Map<string, T[]>, k: string, v: T) {
  const held = m.get(k);
  if (held) held.push(v);
  else m.set(k, [v]);
}
const bySupervisor = (a: { r: Row }, b: { r: Row }) => ((a.r.supervisor_id as string) < (b.r.supervisor_id as string) ? -1 : 1);

/** Pairs each started link with an ended one of the same affiliate and type under another supervisor; groups the bulk moves. */
export function findTransfers(input: TransfersInput): { single: TransferFound[]; bulk: BulkFound[] } {
  const endedByKey = new Map<string, { r: Row; i: number }[]>();
  input.ended.forEach((r, i) => add(endedByKey, key(r), { r, i }));
  const startedByKey = new Map<string, { r: Row; i: number }[]>();
  input.started.forEach((r, i) => add(startedByKey, key(r), { r, i }));

  const found: TransferFound[] = [];
  for (const [k, starts] of startedByKey) {
    const ends = [...(endedByKey.get(k) ?? [])].sort(bySupervisor);
    for (const s of [...starts].sort(bySupervisor)) {
      const to = s.r;
      if (ends.length) {
        // A role change ends and starts a link under the same supervisor: not a move.
        const at = ends.findIndex((e) => e.r.supervisor_id !== to.supervisor_id);
        if (at < 0) continue;
        const [e] = ends.splice(at, 1);
        found.push({ from: e.r, to, gap_days: daysBetween(e.r.effective_to as string, to.effective_from as string), ended: e.i, started: s.i });
        continue;
      }
      if (endedByKey.has(k) || input.keptOpen(to.affiliate_id as string, to.relationship_type as string)) continue;
      const before = input.endedBefore.get(k);
      if (!before || before.supervisor_id === to.supervisor_id) continue;
      const gap = daysBetween(before.effective_to as string, to.effective_from as string);
      if (gap >= 0 && gap <= TRANSFER_WINDOW_DAYS) found.push({ from: before, to, gap_days: gap, ended: null, started: s.i });
    }
  }

  // Moves within the run from one supervisor to another on one date: a bulk move when most of the roster went.
  const groups = new Map<string, TransferFound[]>();
  for (const t of found) {
    if (t.ended === null) continue;
    const g = `${t.from.supervisor_id as string}|${t.to.supervisor_id as string}|${t.to.relationship_type as string}|${t.to.effective_from as string}`;
    add(groups, g, t);
  }
  const bulk: BulkFound[] = [];
  const inBulk = new Set<TransferFound>();
  for (const transfers of groups.values()) {
    const { from, to } = transfers[0];
    const roster = input.rosterBefore(from.supervisor_id as string, from.relationship_type as string);
    if (transfers.length < BULK_MOVE_MIN || 2 * transfers.length <= roster) continue;
    bulk.push({ from: from.supervisor_id as string, to: to.supervisor_id as string, relationship_type: to.relationship_type as string, effective_from: to.effective_from as string, roster_before: roster, transfers });
    for (const t of transfers) inBulk.add(t);
  }
  return { single: found.filter((t) => !inBulk.has(t)).sort((a, b) => a.started - b.started), bulk };
}
