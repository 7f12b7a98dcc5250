// Change events: what a refresh changed, one event per change (docs/changes.md).

export const CHANGE_TYPES = [
  'license_added',
  'status_changed',
  'expiration_changed',
  'name_changed',
  'left_source',
  'returned_to_source',
  'supervision_started',
  'supervision_ended',
  'supervision_transferred',
  'roster_moved',
  'state_loaded',
  'supervisor_status_changed',
  'supervision_gap_opened',
  'designated_broker_changed',
  'license_expiring',
  'renewed_after_lapse',
] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/**
 * Old names a client may still send (the feed's `types`, an endpoint's `event_types`): each stands
 * for its new name through `until` (UTC), and is unknown after. Answers carry the new name.
 */
export const RENAMED_CHANGE_TYPES = new Map<string, { name: ChangeType; until: string }>([
  ['licence_added', { name: 'license_added', until: '2027-06-30' }],
]);

/** The type a name a client sent stands for on `today` (YYYY-MM-DD), or undefined when it is unknown. */
export function changeTypeNamed(name: string, today: string): ChangeType | undefined {
  if ((CHANGE_TYPES as readonly string[]).includes(name)) return name as ChangeType;
  const old = RENAMED_CHANGE_TYPES.get(name);
  return old && today <= old.until ? old.name : undefined;
}

/** A relationship may start this many days after another of its affiliate and type ended (under another supervisor) and still be a transfer from it. */
export const TRANSFER_WINDOW_DAYS = 90;

/** A relationship a supervision event is about. */
export interface ChangedRelationship {
  supervisor_license_credential_id: string;
  supervisor_license_number: string | null;
  affiliate_license_credential_id: string;
  relationship_type: string;
  affiliate_role: string | null;
  effective_from: string;
  effective_to: string | null;
}

/**
 * An affiliate's relationship of one type that ended with one supervisor and started with another
 * (docs/changes.md, *Transfers*). While a run stages it, the two events are named by their place in
 * the run (`*_n`); once published, by their feed numbers (`*_seq`).
 */
export interface Transfer {
  from: ChangedRelationship;
  to: ChangedRelationship;
  /** Days from the end of `from` to the start of `to`; negative when they overlap. */
  gap_days: number;
  ended_n?: number | null;
  started_n?: number | null;
  ended_seq?: number | null;
  started_seq?: number | null;
}

/** Most of a supervisor's roster of one relationship type moved to one other supervisor on one date. */
export interface BulkMove {
  from_supervisor_license_credential_id: string;
  from_supervisor_license_number: string | null;
  to_supervisor_license_credential_id: string;
  to_supervisor_license_number: string | null;
  relationship_type: string;
  effective_from: string;
  /** Affiliates moved, and the open relationships of this type the first supervisor had before the snapshot. */
  moved: number;
  roster_before: number;
  /** The `roster_moved` event, on the events of the affiliates it moved (its place in the run while staged). */
  event_n?: number | null;
  event_seq?: number | null;
}

/** One relationship crossed on the way up from a watched licence. */
export interface PathStep {
  affiliate_license_credential_id: string;
  supervisor_license_credential_id: string;
  supervisor_license_number: string;
  supervisor_full_name: string | null;
  relationship_type: string;
  effective_from: string;
}

/** What an account's event is derived from (its `key` is unique per account: a derivation run again writes none twice). */
export interface Alert {
  key: string;
  /** From the watched licence up to the supervisor the cause is about; empty when the cause is on the watched licence itself. */
  path: PathStep[];
  /** The feed numbers of the public events it was derived from. */
  cause_seqs: number[];
}

/** One change as a run detects it (the feed adds its id). */
export interface ChangeEvent {
  type: ChangeType;
  state: string;
  /** Null for a state's summary event. */
  license_number: string | null;
  license_credential_id: string | null;
  old: Record<string, unknown> | null;
  new: Record<string, unknown> | null;
  relationship: ChangedRelationship | null;
  /** On `supervision_transferred`. */
  transfer?: Transfer | null;
  /** On `roster_moved`, and on the supervision events of the affiliates it moved. */
  bulk_move?: BulkMove | null;
  /** On an account's own event: the account, and what it was derived from. */
  account_id?: string | null;
  alert?: Alert | null;
  snapshot_date: string;
  detected_at: string;
  source: string;
}

/** A transfer as the feed publishes it: the two events named by their ids. */
export interface PublishedTransfer {
  from: ChangedRelationship;
  to: ChangedRelationship;
  gap_days: number;
  ended_event_id: string | null;
  started_event_id: string | null;
}
export type PublishedBulkMove = Omit<BulkMove, 'event_n' | 'event_seq'> & { event_id: string | null };

/** A published event's id: unique, and sorts in feed order. */
export const changeId = (seq: number) => `chg_${String(seq).padStart(12, '0')}`;

const idOf = (seq: number | null | undefined) => (seq == null ? null : changeId(seq));

export interface PublishedAlert {
  key: string;
  path: PathStep[];
  cause_event_ids: string[];
}

export type PublishedChange = Omit<ChangeEvent, 'transfer' | 'bulk_move' | 'account_id' | 'alert'> & {
  id: string;
  transfer: PublishedTransfer | null;
  bulk_move: PublishedBulkMove | null;
  alert: PublishedAlert | null;
};

/** An event as the feed and webhooks publish it: its id, and the event's fields, nothing else (a stored row's `seq` stays out). */
export const publishedChange = (seq: number, e: ChangeEvent): PublishedChange => ({
  id: changeId(seq),
  type: e.type,
  state: e.state,
  license_number: e.license_number,
  license_credential_id: e.license_credential_id,
  old: e.old,
  new: e.new,
  relationship: e.relationship,
  transfer: e.transfer ? { from: e.transfer.from, to: e.transfer.to, gap_days: e.transfer.gap_days, ended_event_id: idOf(e.transfer.ended_seq), started_event_id: idOf(e.transfer.started_seq) } : null,
  bulk_move: e.bulk_move ? { ...withoutPlaces(e.bulk_move), event_id: idOf(e.bulk_move.event_seq) } : null,
  alert: e.alert ? { key: e.alert.key, path: e.alert.path, cause_event_ids: e.alert.cause_seqs.map(changeId) } : null,
  snapshot_date: e.snapshot_date,
  detected_at: e.detected_at,
  source: e.source,
});

function withoutPlaces({ event_n: _n, event_seq: _s, ...move }: BulkMove) {
  return move;
}
