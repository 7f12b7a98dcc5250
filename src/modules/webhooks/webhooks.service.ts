import { randomBytes } from 'node:crypto';
import { changeId } from '../../domain/changes.js';
import { EVENT_TYPES, eventTypeNamed, type EventType } from '../../domain/webhook-events.js';
import { clockOf } from '../../domain/clock.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import type { SqlTx } from '../../store/sql-store.js';
import type { WebhookTransport } from './transport.js';
import type { Account } from '../accounts/account.js';
import { previousSecret, type DeliveryRow, type EndpointRow, type WebhooksRepo } from './webhooks.repo.js';

/** Endpoints an account may hold. */
export const MAX_ENDPOINTS = 10;
/** How long the secret a rotation replaces keeps signing beside the new one. */
const PREVIOUS_SECRET_HOURS = 24;

/** A Standard Webhooks secret: `whsec_` and base64 of 32 random bytes. */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const newId = () => `we_${randomBytes(12).toString('hex')}`;

const endpointView = (e: EndpointRow, at: Date) => ({
  id: e.id,
  url: e.url,
  description: e.description,
  event_types: e.event_types,
  status: e.status,
  disabled_reason: e.disabled_reason,
  previous_secret_expires_at: previousSecret(e, at) ? e.previous_secret_expires_at : null,
  created_at: e.created_at,
  updated_at: e.updated_at,
});

const deliveryView = (d: DeliveryRow) => ({
  id: d.id,
  event_id: d.event_seq === null ? d.payload!.data.id : changeId(d.event_seq),
  event_type: d.event_type,
  status: d.status,
  attempts: d.attempts,
  next_attempt_at: d.status === 'pending' ? d.next_attempt_at : null,
  last_attempt_at: d.last_attempt_at,
  last_status_code: d.last_status_code,
  last_error: d.last_error,
  last_response_excerpt: d.last_response_excerpt,
  created_at: d.created_at,
});

export interface EndpointInput {
  url: string;
  description?: string | null;
  /** Type names as sent: an old name stands for its new one while it is accepted. */
  event_types?: string[] | null;
}

/** An account's webhook endpoints and their delivery logs. Sending is the dispatcher's. */
export function createWebhooksService(deps: { repo: WebhooksRepo; transport: WebhookTransport; now: () => Date; nudge?: () => void }) {
  const { repo, transport, now } = deps;

  async function checkUrl(url: string) {
    const refused = await transport.refuse(url);
    if (refused) throw new ValidationError([{ loc: ['body', 'url'], msg: refused.reason, type: 'value_error', input: url }]);
  }
  /** The types named, on the service's day (an old name as its new one while it is accepted); 422 for an unknown one. */
  function eventTypes(names: string[] | null | undefined): EventType[] | null | undefined {
    if (!names) return names;
    const today = clockOf(now).today();
    const types = names.map((n) => eventTypeNamed(n, today));
    const issues = names.flatMap((n, i) =>
      types[i] ? [] : [{ loc: ['body', 'event_types', i], msg: `unknown event type ${n}; known: ${EVENT_TYPES.join(', ')}`, type: 'enum', input: n, ctx: { expected: EVENT_TYPES.join(', ') } }],
    );
    if (issues.length) throw new ValidationError(issues);
    return types as EventType[];
  }
  async function owned(account: Account, id: string) {
    const e = await repo.endpoint(account.id, id);
    if (!e) throw new NotFoundError(`no webhook endpoint ${id} on this account`);
    return e;
  }

  return {
    async create(account: Account, input: EndpointInput) {
      const types = eventTypes(input.event_types);
      await checkUrl(input.url);
      const secret = newSecret();
      const row = await repo.createEndpoint(
        { id: newId(), account_id: account.id, url: input.url, description: input.description ?? null, event_types: types ?? null, secret },
        now(),
        MAX_ENDPOINTS,
      );
      if (!row) throw new ConflictError(`an account holds at most ${MAX_ENDPOINTS} webhook endpoints: delete one first`);
      return { ...endpointView(row, now()), secret };
    },
    async list(account: Account) {
      return { data: (await repo.endpoints(account.id)).map((e) => endpointView(e, now())) };
    },
    async get(account: Account, id: string) {
      return endpointView(await owned(account, id), now());
    },
    async update(account: Account, id: string, patch: Partial<EndpointInput> & { status?: 'enabled' | 'disabled' }) {
      const { event_types: names, ...rest } = patch;
      // Left out when not sent: the repo changes only the fields it is given.
      const set = { ...rest, ...(names !== undefined && { event_types: eventTypes(names) }), disabled_reason: patch.status === 'disabled' ? 'disabled by the account' : null };
      if (patch.url !== undefined) await checkUrl(patch.url);
      else if (patch.status === 'enabled') {
        // An endpoint disabled for its address (say, made under WEBHOOK_ALLOW_PRIVATE_URLS) stays off until its URL changes.
        const { url } = await owned(account, id);
        const refused = await transport.refuse(url);
        if (refused && !refused.transient) {
          throw new ValidationError([{ loc: ['body', 'status'], msg: `cannot enable: ${refused.reason}; send a new url`, type: 'value_error', input: 'enabled' }]);
        }
      }
      const row = await repo.updateEndpoint(account.id, id, set, now());
      if (!row) throw new NotFoundError(`no webhook endpoint ${id} on this account`);
      // Deliveries held while it was disabled go now.
      if (row.status === 'enabled') deps.nudge?.();
      return endpointView(row, now());
    },
    async remove(account: Account, id: string) {
      if (!(await repo.deleteEndpoint(account.id, id))) throw new NotFoundError(`no webhook endpoint ${id} on this account`);
      return { id, deleted: true as const };
    },
    /** A new secret, shown once; the old one signs beside it for a day, so receivers can switch without losing an event. */
    async rotateSecret(account: Account, id: string) {
      const secret = newSecret();
      const at = now();
      const row = await repo.rotateSecret(account.id, id, secret, new Date(at.getTime() + PREVIOUS_SECRET_HOURS * 3600_000), at);
      if (!row) throw new NotFoundError(`no webhook endpoint ${id} on this account`);
      return { ...endpointView(row, now()), secret };
    },
    async deliveries(account: Account, id: string, q: { status?: DeliveryRow['status']; page: number; per_page: number }) {
      await owned(account, id);
      const { rows, total } = await repo.deliveries(id, q.status, (q.page - 1) * q.per_page, q.per_page);
      return { data: rows.map(deliveryView), meta: { total, page: q.page, per_page: q.per_page } };
    },
    /**
     * At start: endpoints whose URL the address rules now refuse (made under
     * WEBHOOK_ALLOW_PRIVATE_URLS=true, say) are disabled, saying why, and what they had pending
     * fails at once rather than being retried for a day. A host that does not resolve is left
     * alone: it may resolve later.
     */
    async disableRefusedEndpoints(): Promise<{ id: string; account_id: string; reason: string }[]> {
      const endpoints = await repo.enabledEndpoints();
      const refusals = await Promise.all(endpoints.map((e) => transport.refuse(e.url)));
      const disabled = [];
      for (const [i, e] of endpoints.entries()) {
        const refused = refusals[i];
        if (!refused || refused.transient) continue;
        await repo.refuseEndpoint(e.id, refused.reason, `the endpoint was disabled: ${refused.reason}`, now());
        disabled.push({ id: e.id, account_id: e.account_id, reason: refused.reason });
      }
      return disabled;
    },
    /**
     * In the caller's transaction `tx` (the one that decides the event): a delivery of an event
     * that is not a change (a job's) to each enabled endpoint of the account subscribed to its type.
     * Call `nudge` once `tx` commits.
     */
    fanOutEvent: (tx: SqlTx, accountId: string, type: EventType, payload: object, at: Date) => repo.fanOutEvent(tx, accountId, type, payload, at),
    /** Deliveries were stored: send them now. */
    nudge: () => deps.nudge?.(),
    async redeliver(account: Account, id: string, deliveryId: string) {
      await owned(account, id);
      const row = await repo.redeliver(id, deliveryId, now());
      if (!row) throw new NotFoundError(`no delivery ${deliveryId} for webhook endpoint ${id}`);
      deps.nudge?.();
      return deliveryView(row);
    },
  };
}
export type WebhooksService = ReturnType<typeof createWebhooksService>;
