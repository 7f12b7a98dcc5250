import { CHANGE_TYPES, RENAMED_CHANGE_TYPES } from '../../domain/changes.js';
import { IsoDate, StateCode, intQueryParam } from '../../http/common.schemas.js';
import { z } from '../../http/zod.js';

const Values = z.record(z.string(), z.unknown()).nullable();

/** Old type names still accepted in filters, for descriptions: answers name only the new ones. */
export const RENAMED_NOTE = [...RENAMED_CHANGE_TYPES]
  .map(([old, { name, until }]) => `\`${old}\`, the old name of \`${name}\`, is accepted until ${until}`)
  .join('; ');

const Relationship = z
  .object({
    supervisor_license_credential_id: z.string(),
    supervisor_license_number: z.string().nullable(),
    affiliate_license_credential_id: z.string(),
    relationship_type: z.string(),
    affiliate_role: z.string().nullable(),
    effective_from: z.string(),
    effective_to: z.string().nullable(),
  })
  .openapi('ChangedRelationship');

const TransferSchema = z
  .object({
    from: Relationship.openapi({ description: 'The relationship that ended' }),
    to: Relationship.openapi({ description: 'The relationship that started' }),
    gap_days: z.number().int().openapi({ description: "Days from the end of `from` to the start of `to`, by the source's dates; negative when they overlap" }),
    ended_event_id: z.string().nullable().openapi({ description: 'The `supervision_ended` event of `from`; null when an earlier snapshot ended it' }),
    started_event_id: z.string().nullable().openapi({ description: 'The `supervision_started` event of `to`' }),
  })
  .openapi('Transfer');

const BulkMoveSchema = z
  .object({
    from_supervisor_license_credential_id: z.string(),
    from_supervisor_license_number: z.string().nullable(),
    to_supervisor_license_credential_id: z.string(),
    to_supervisor_license_number: z.string().nullable(),
    relationship_type: z.string(),
    effective_from: z.string().openapi({ format: 'date' }),
    moved: z.number().int().openapi({ description: 'Affiliates moved' }),
    roster_before: z.number().int().openapi({ description: 'Open relationships of this type the first supervisor had before the snapshot' }),
    event_id: z.string().nullable().openapi({ description: 'On a moved affiliate\'s supervision events, the `roster_moved` event; null on that event' }),
  })
  .openapi('BulkMove');

const PathStepSchema = z
  .object({
    affiliate_license_credential_id: z.string(),
    supervisor_license_credential_id: z.string(),
    supervisor_license_number: z.string(),
    supervisor_full_name: z.string().nullable(),
    relationship_type: z.string(),
    effective_from: z.string().openapi({ format: 'date' }),
  })
  .openapi('PathStep');

const AlertSchema = z
  .object({
    key: z.string().openapi({ description: 'What the event is about, unique in your feed: an event derived again is never written twice' }),
    path: z.array(PathStepSchema).openapi({ description: 'The relationships in force from your watched licence up to the supervisor the cause is about, nearest first; empty when the cause is on the watched licence itself' }),
    cause_event_ids: z.array(z.string()).openapi({ description: 'The public events it was derived from' }),
  })
  .openapi('Alert');

export const ChangeEventSchema = z
  .object({
    id: z.string().openapi({ description: 'Unique, and sorts in feed order', example: 'chg_000000000042' }),
    type: z.enum(CHANGE_TYPES).openapi({ description: `Events carry the current names. In filters, ${RENAMED_NOTE}.` }),
    state: z.string(),
    license_number: z.string().nullable().openapi({ description: 'Null for a state summary (`state_loaded`)' }),
    license_credential_id: z.string().nullable(),
    old: Values.openapi({ description: 'The values before the change (the fields the type is about)' }),
    new: Values.openapi({ description: 'The values after the change; for `state_loaded`, what the first load brought' }),
    relationship: Relationship.nullable().openapi({ description: 'The relationship a `supervision_started` or `supervision_ended` event is about; on `supervision_transferred`, the one that started' }),
    transfer: TransferSchema.nullable().openapi({ description: 'On `supervision_transferred`: the relationships that ended and started, and their events' }),
    bulk_move: BulkMoveSchema.nullable().openapi({
      description: "On `roster_moved` (most of a supervisor's roster moved to another on one date, told once instead of a transfer per affiliate), and on the supervision events of the affiliates it moved",
    }),
    alert: AlertSchema.nullable().openapi({
      description: 'On an event derived for your account alone from your watchlist (`supervisor_status_changed`, `supervision_gap_opened`, `designated_broker_changed`): what it is about and why; null on public events',
    }),
    snapshot_date: z.string().openapi({ format: 'date', description: 'The source snapshot the change was seen in' }),
    detected_at: z.string().openapi({ format: 'date-time' }),
    source: z.string(),
  })
  .openapi('ChangeEvent');

export const ChangesQuery = z
  .object({
    cursor: z.string().min(1).max(64).optional().openapi({ description: 'The `next_cursor` of the previous page (not with `since`)' }),
    since: IsoDate.optional().openapi({ description: 'First call only, never with `cursor` (a 422): events detected on or after this day (UTC)' }),
    state: StateCode.optional(),
    types: z
      .string()
      .max(400)
      .optional()
      // Which names are known depends on the day (an old name is accepted for a while): the service checks them.
      .transform((v) => v?.split(',').map((t) => t.trim()).filter(Boolean))
      .openapi({ type: 'string', description: `Comma-separated event types: ${CHANGE_TYPES.join(', ')}. ${RENAMED_NOTE}.` }),
    limit: intQueryParam(1, 1000, 100, 'Events per page, 1 to 1,000'),
  })
  .superRefine((q, ctx) => {
    if (q.cursor !== undefined && q.since !== undefined) ctx.addIssue({ code: 'custom', path: ['since'], message: 'since is for the first call: with a cursor, leave it out' });
  });

export const ChangeFeed = z
  .object({
    data: z.array(ChangeEventSchema),
    next_cursor: z.string().nullable().openapi({ description: 'Where to go on from (also to poll for new events); null before any event' }),
    has_more: z.boolean().openapi({ description: 'More events are waiting now' }),
  })
  .openapi('ChangeFeed');
