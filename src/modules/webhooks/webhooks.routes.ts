import { route, type RouteContext } from '../../http/route.js';
import { z } from '../../http/zod.js';
import {
  Deleted,
  DeliveriesQuery,
  Delivery,
  DeliveryPage,
  DeliveryPath,
  Endpoint,
  EndpointCreate,
  EndpointList,
  EndpointPath,
  EndpointUpdate,
  EndpointWithSecret,
  WebhookPayload,
} from './webhooks.schemas.js';
import type { WebhooksService } from './webhooks.service.js';

/** The Standard Webhooks headers every delivery carries. */
export const DELIVERY_HEADERS = z.object({
  'webhook-id': z.string().openapi({ description: 'The delivery id (`msg_...`): the same on every attempt' }),
  'webhook-timestamp': z.string().openapi({ description: 'Unix seconds when this attempt was signed' }),
  'webhook-signature': z.string().openapi({ description: 'Space-separated `v1,<base64 signature>` entries' }),
});

export const SIGNING = [
  'Each delivery is a POST of a `WebhookPayload` signed as the Standard Webhooks specification says: `webhook-id` (the same on every attempt: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">` under the endpoint\'s `whsec_` secret; after a rotation, a second signature by the previous secret for 24 hours).',
  'Verify with a published library, for example `new Webhook(secret).verify(body, headers)` from `standardwebhooks` on npm.',
  'Answer 2xx within 15 seconds; anything else, or no answer, is retried with exponential backoff for about 27 hours, then the delivery is failed. 410 Gone disables the endpoint.',
].join(' ');

/** An account's webhook endpoints and their delivery logs: not metered. */
export function webhooksRoutes(ctx: RouteContext, service: WebhooksService) {
  const tags = ['Monitoring'];
  route(ctx, {
    method: 'post',
    path: '/api/v1/webhooks',
    operationId: 'createWebhookEndpoint',
    summary: 'Add a webhook endpoint (its signing secret is shown this once)',
    description: `The account's watched licences and followed states decide which events are sent; \`event_types\` narrows them. ${SIGNING} The URL must be https and resolve to public addresses; it is checked again at every delivery. At most 10 endpoints (409).`,
    tags,
    body: EndpointCreate,
    response: EndpointWithSecret,
    errors: [409],
    handler: ({ body }, _req, res) => service.create(res.locals.caller!.account, body),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/webhooks',
    operationId: 'listWebhookEndpoints',
    summary: "The account's webhook endpoints",
    tags,
    response: EndpointList,
    handler: (_input, _req, res) => service.list(res.locals.caller!.account),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/webhooks/:id',
    operationId: 'getWebhookEndpoint',
    summary: 'One webhook endpoint',
    tags,
    params: EndpointPath,
    response: Endpoint,
    errors: [404],
    handler: ({ params }, _req, res) => service.get(res.locals.caller!.account, params.id),
  });
  route(ctx, {
    method: 'patch',
    path: '/api/v1/webhooks/:id',
    operationId: 'updateWebhookEndpoint',
    summary: 'Change, disable or enable a webhook endpoint',
    description: 'A disabled endpoint is sent nothing, and events published meanwhile are not queued for it; its pending deliveries wait, and go when it is enabled again.',
    tags,
    params: EndpointPath,
    body: EndpointUpdate,
    response: Endpoint,
    errors: [404],
    handler: ({ params, body }, _req, res) => service.update(res.locals.caller!.account, params.id, body),
  });
  route(ctx, {
    method: 'delete',
    path: '/api/v1/webhooks/:id',
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint and its delivery log',
    tags,
    params: EndpointPath,
    response: Deleted,
    errors: [404],
    handler: ({ params }, _req, res) => service.remove(res.locals.caller!.account, params.id),
  });
  route(ctx, {
    method: 'post',
    path: '/api/v1/webhooks/:id/rotate-secret',
    operationId: 'rotateWebhookSecret',
    summary: 'A new signing secret (shown this once); the previous one signs too for 24 hours',
    tags,
    params: EndpointPath,
    response: EndpointWithSecret,
    errors: [404],
    handler: ({ params }, _req, res) => service.rotateSecret(res.locals.caller!.account, params.id),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/webhooks/:id/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: "An endpoint's delivery log, newest first (kept 30 days)",
    tags,
    params: EndpointPath,
    query: DeliveriesQuery,
    response: DeliveryPage,
    errors: [404],
    handler: ({ params, query }, _req, res) => service.deliveries(res.locals.caller!.account, params.id, query),
  });
  route(ctx, {
    method: 'post',
    path: '/api/v1/webhooks/:id/deliveries/:delivery_id/redeliver',
    operationId: 'redeliverWebhook',
    summary: 'Send a delivery again now (same webhook-id), with the whole retry schedule ahead of it',
    tags,
    params: DeliveryPath,
    response: Delivery,
    errors: [404],
    handler: ({ params }, _req, res) => service.redeliver(res.locals.caller!.account, params.id, params.delivery_id),
  });

  ctx.registry.registerWebhook({
    method: 'post',
    path: 'licence-change',
    operationId: 'licenceChangeWebhook',
    summary: 'A change to a watched licence or a followed state',
    description: SIGNING,
    tags,
    request: {
      headers: DELIVERY_HEADERS,
      body: { required: true, content: { 'application/json': { schema: WebhookPayload } } },
    },
    responses: {
      200: { description: 'Any 2xx: received. Anything else is retried; 410 disables the endpoint.' },
    },
  });
}
