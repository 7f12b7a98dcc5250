// Change events: what a refresh changed, one event per change (docs/changes.md).

export const CHANGE_TYPES = [
  'licence_added',
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

/** An event as the feed and webhooks publish it. */
export const publishedChange = (seq: number, event: ChangeEvent) => ({ id: changeId(seq), ...event });
