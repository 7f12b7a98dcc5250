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
  'state_loaded',
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
  snapshot_date: string;
  detected_at: string;
  source: string;
}

/** A published event's id: unique, and sorts in feed order. */
export const changeId = (seq: number) => `chg_${String(seq).padStart(12, '0')}`;

/** An event as the feed and webhooks publish it: its id, and the event's fields, nothing else (a stored row's `seq` stays out). */
export const publishedChange = (seq: number, e: ChangeEvent): ChangeEvent & { id: string } => ({
  id: changeId(seq),
  type: e.type,
  state: e.state,
  license_number: e.license_number,
  license_credential_id: e.license_credential_id,
  old: e.old,
  new: e.new,
  relationship: e.relationship,
  snapshot_date: e.snapshot_date,
  detected_at: e.detected_at,
  source: e.source,
});
