import { type ChangeEvent, type ChangedRelationship, type ChangeType } from '../domain/changes.js';
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

/** A relationship opened or ended, as an event on its affiliate's licence. */
export function supervision(ctx: RunContext, type: 'supervision_started' | 'supervision_ended', link: Row): ChangeEvent {
  const relationship: ChangedRelationship = {
    supervisor_license_credential_id: link.supervisor_id as string,
    supervisor_license_number: null,
    affiliate_license_credential_id: link.affiliate_id as string,
    relationship_type: link.relationship_type as string,
    affiliate_role: (link.affiliate_role as string | null) ?? null,
    effective_from: link.effective_from as string,
    effective_to: (link.effective_to as string | null) ?? null,
  };
  return event(ctx, type, link.affiliate_id as string, null, null, relationship);
}

/** Fills in the licence numbers the events lack (`numbers` by credential id). */
export function withNumbers(events: ChangeEvent[], numbers: Map<string, string>): ChangeEvent[] {
  for (const e of events) {
    if (e.license_credential_id) e.license_number ??= numbers.get(e.license_credential_id) ?? null;
    if (e.relationship) e.relationship.supervisor_license_number ??= numbers.get(e.relationship.supervisor_license_credential_id) ?? null;
  }
  return events;
}

/** The credentials whose licence numbers the events lack. */
export const credentialIds = (events: ChangeEvent[]) =>
  [
    ...new Set(
      events.flatMap((e) => [e.license_number === null ? e.license_credential_id : null, e.relationship?.supervisor_license_number === null ? e.relationship.supervisor_license_credential_id : null]),
    ),
  ].filter((id): id is string => !!id);

/** A state's first load: one event for all it brought. */
export const stateLoaded = (ctx: RunContext, counts: { credentials: number; relationships: number }) => event(ctx, 'state_loaded', null, null, counts);
