import { CHANGE_TYPES } from '../../domain/changes.js';
import { EVENT_TYPES } from '../../domain/webhook-events.js';
import { PageParam, PaginationMeta, intQueryParam } from '../../http/common.schemas.js';
import { DEMO_DELIVERY_ID, DEMO_WEBHOOK_ID, DEMO_WEBHOOK_URL } from '../../http/examples.js';
import { z } from '../../http/zod.js';
import { ChangeEventSchema, RENAMED_NOTE } from '../changes/changes.schemas.js';

// Any name here: which are known depends on the day (an old name is accepted for a while), so the
// service checks them; the document lists the current names.
const EventType = z.string().max(64).openapi({ type: 'string', enum: [...EVENT_TYPES], description: `${RENAMED_NOTE} The verification_job types are a roster job's (docs/changes.md), not change events.` });

const EventTypes = z
  .array(EventType)
  .min(1, 'must name at least one event type (leave it out, or null, for all)')
  .nullable()
  .openapi({ description: 'The event types sent to the endpoint; null: every type' });

const Url = z.string().max(2000).openapi({ format: 'uri', description: 'Where deliveries are POSTed: https, resolving to public addresses only', example: DEMO_WEBHOOK_URL });
const Description = z.string().max(200).nullable();

export const EndpointCreate = z
  .object({ url: Url, description: Description.optional(), event_types: EventTypes.optional() })
  .strict()
  .openapi('WebhookEndpointCreate', { example: { url: DEMO_WEBHOOK_URL, description: 'Licence changes for the compliance team', event_types: ['status_changed', 'supervision_ended'] } });

export const EndpointUpdate = z
  .object({
    url: Url.optional(),
    description: Description.optional(),
    event_types: EventTypes.optional(),
    status: z.enum(['enabled', 'disabled']).optional().openapi({ description: 'disabled: nothing is sent, and events are not queued for it' }),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'name at least one of url, description, event_types, status')
  .openapi('WebhookEndpointUpdate', { example: { description: 'Licence changes for the compliance team', event_types: ['status_changed', 'supervision_ended'] } });

export const Endpoint = z
  .object({
    id: z.string().openapi({ example: DEMO_WEBHOOK_ID }),
    url: z.string(),
    description: z.string().nullable(),
    event_types: z.array(z.enum(EVENT_TYPES)).nullable(),
    status: z.enum(['enabled', 'disabled']),
    disabled_reason: z.string().nullable().openapi({ description: 'Why it is disabled: by the account, the receiver answered 410 Gone, or the address rules refuse its URL' }),
    previous_secret_expires_at: z.string().nullable().openapi({ format: 'date-time', description: 'After a rotation: until then, deliveries carry a signature by the previous secret too' }),
    created_at: z.string().openapi({ format: 'date-time' }),
    updated_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('WebhookEndpoint');

export const EndpointWithSecret = Endpoint.extend({
  secret: z.string().openapi({ description: 'The signing secret (Standard Webhooks, `whsec_...`): shown this once', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
}).openapi('WebhookEndpointWithSecret');

export const EndpointList = z.object({ data: z.array(Endpoint) }).openapi('WebhookEndpointList');

export const EndpointPath = z.object({ id: z.string().regex(/^we_[0-9a-f]{24}$/, 'not a webhook endpoint id (we_...)').openapi({ example: DEMO_WEBHOOK_ID }) });
export const DeliveryPath = EndpointPath.extend({ delivery_id: z.string().regex(/^msg_[0-9a-f]{32}$/, 'not a delivery id (msg_...)').openapi({ example: DEMO_DELIVERY_ID }) });

export const Deleted = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('WebhookEndpointDeleted');

export const Delivery = z
  .object({
    id: z.string().openapi({ description: 'The `webhook-id` header: the same on every attempt, for the receiver to deduplicate' }),
    event_id: z.string().openapi({ description: 'The change event\'s id (`chg_...`), or the job\'s for a verification_job event' }),
    event_type: z.enum(EVENT_TYPES),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attempts: z.number().int(),
    next_attempt_at: z.string().nullable().openapi({ format: 'date-time' }),
    last_attempt_at: z.string().nullable().openapi({ format: 'date-time' }),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable().openapi({ description: 'Why the last attempt got no answer (timeout, refused address, connection)' }),
    last_response_excerpt: z.string().nullable().openapi({ description: 'The first kilobyte of the last response body' }),
    created_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('WebhookDelivery');

export const DeliveriesQuery = z.object({
  status: z.enum(['pending', 'succeeded', 'failed']).optional(),
  page: PageParam,
  per_page: intQueryParam(1, 100, 25, 'Deliveries per page, 1 to 100'),
});

export const DeliveryPage = z.object({ data: z.array(Delivery), meta: PaginationMeta }).openapi('WebhookDeliveryPage');

/** What a receiver gets: Standard Webhooks' recommended envelope around the feed's event. */
export const WebhookPayload = z
  .object({
    type: z.enum(CHANGE_TYPES),
    timestamp: z.string().openapi({ format: 'date-time', description: 'When the change was detected' }),
    data: ChangeEventSchema,
  })
  .openapi('WebhookPayload');
