import { type BulkMove, type ChangeEvent, type ChangedRelationship, type ChangeType, type Transfer } from '../domain/changes.js';
import type { Row } from '../graph/graph-port.js';

/** What every event of one run shares. */
export interface RunContext {
  state: string;
  snapshot_date: string;
  detected_at: string;
  source: string;
}

const NAME = ['full_name', 'business_name'] as const;
const STATUS = ['status', 'status_normalized'] as const;
const EXPIRATION = ['expiration_date'] as const;

const pick = (r: Row, keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, (r[k] as unknown) ?? null]));
const differs = (a: Row, b: Row, keys: readonly string[]) => keys.some((k) => (a[k] ?? null) !== (b[k] ?? null));

function event(ctx: RunContext, type: ChangeType, id: string | null, old: Row | null, now: Row | null, relationship: ChangedRelationship | null = null, number: string | null = null): ChangeEvent {
  return { type, license_number: number, license_credential_id: id, old, new: now, relationship, ...ctx };
}

const numberOf = (r: Row) => (r.license_number as string | undefined) ?? null;

/** A licence new to the graph. */
export const added = (ctx: RunContext, r: Row) => event(ctx, 'license_added', r.id as string, null, pick(r, [...STATUS, ...EXPIRATION, ...NAME]), null, numberOf(r));

/** What changed between a licence's document before the run (`old`) and its new row. */
export function updated(ctx: RunContext, old: Row, r: Row): ChangeEvent[] {
  const id = r.id as string;
  const out: ChangeEvent[] = [];
  const n = numberOf(r);
  if (differs(old, r, STATUS)) out.push(event(ctx, 'status_changed', id, pick(old, STATUS), pick(r, STATUS), null, n));
  if (differs(old, r, EXPIRATION)) out.push(event(ctx, 'expiration_changed', id, pick(old, EXPIRATION), pick(r, EXPIRATION), null, n));
  if (differs(old, r, NAME)) out.push(event(ctx, 'name_changed', id, pick(old, NAME), pick(r, NAME), null, n));
  return out;
}

export const leftSource = (ctx: RunContext, id: string, old: Row, status: string) =>
  event(ctx, 'left_source', id, pick(old, STATUS), { status, status_normalized: 'inactive', left_source_on: ctx.snapshot_date }, null, numberOf(old));

export const returned = (ctx: RunContext, id: string, leftOn: string | null) => event(ctx, 'returned_to_source', id, { left_source_on: leftOn }, { left_source_on: null });

const relationshipOf = (link: Row): ChangedRelationship => ({
    supervisor_license_credential_id: link.supervisor_id as string,
    supervisor_license_number: null,
    affiliate_license_credential_id: link.affiliate_id as string,
    relationship_type: link.relationship_type as string,
    affiliate_role: (link.affiliate_role as string | null) ?? null,
    effective_from: link.effective_from as string,
    effective_to: (link.effective_to as string | null) ?? null,
});

/** A relationship opened or ended, as an event on its affiliate's licence (`bulk_move`: the move it was part of). */
export function supervision(ctx: RunContext, type: 'supervision_started' | 'supervision_ended', link: Row, bulk_move: BulkMove | null = null): ChangeEvent {
  return { ...event(ctx, type, link.affiliate_id as string, null, null, relationshipOf(link)), bulk_move };
}

/**
 * An affiliate's move from one supervisor to another, on its licence; `relationship` is the one
 * that started, `transfer` names both and their events (places in the run, `null` for an earlier run's end).
 */
export function transferred(ctx: RunContext, from: Row, to: Row, gap_days: number, ended_n: number | null, started_n: number): ChangeEvent {
  const transfer: Transfer = { from: relationshipOf(from), to: relationshipOf(to), gap_days, ended_n, started_n };
  return { ...event(ctx, 'supervision_transferred', to.affiliate_id as string, null, null, relationshipOf(to)), transfer };
}

/** Most of a supervisor's roster moved to another on one date: one event, on the first supervisor's licence. */
export const rosterMoved = (ctx: RunContext, move: BulkMove): ChangeEvent => ({ ...event(ctx, 'roster_moved', move.from_supervisor_license_credential_id, null, null), bulk_move: move });

/** Fills in the licence numbers the events lack (`numbers` by credential id). */
export function withNumbers(events: ChangeEvent[], numbers: Map<string, string>): ChangeEvent[] {
  for (const e of events) {
    if (e.license_credential_id) e.license_number ??= numbers.get(e.license_credential_id) ?? null;
    for (const r of relationships(e)) r.supervisor_license_number ??= numbers.get(r.supervisor_license_credential_id) ?? null;
    if (e.bulk_move) {
      e.bulk_move.from_supervisor_license_number ??= numbers.get(e.bulk_move.from_supervisor_license_credential_id) ?? null;
      e.bulk_move.to_supervisor_license_number ??= numbers.get(e.bulk_move.to_supervisor_license_credential_id) ?? null;
    }
  }
  return events;
}

const relationships = (e: ChangeEvent) => [e.relationship, e.transfer?.from, e.transfer?.to].filter((r): r is ChangedRelationship => !!r);

/** The credentials whose licence numbers the events lack. */
export const credentialIds = (events: ChangeEvent[]) =>
  [
    ...new Set(
      events.flatMap((e) => [
        e.license_number === null ? e.license_credential_id : null,
        ...relationships(e).map((r) => (r.supervisor_license_number === null ? r.supervisor_license_credential_id : null)),
        e.bulk_move?.from_supervisor_license_number === null ? e.bulk_move.from_supervisor_license_credential_id : null,
        e.bulk_move?.to_supervisor_license_number === null ? e.bulk_move.to_supervisor_license_credential_id : null,
      ]),
    ),
  ].filter((id): id is string => !!id);

/** A state's first load: one event for all it brought. */
export const stateLoaded = (ctx: RunContext, counts: { credentials: number; relationships: number }) => event(ctx, 'state_loaded', null, null, counts);
