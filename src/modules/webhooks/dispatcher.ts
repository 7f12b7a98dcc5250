import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';
import { publishedChange, type ChangeEvent } from '../../domain/changes.js';
import { WebhookRefusedError, type WebhookTransport } from './transport.js';
import { previousSecret, type DeliveryRow, type EndpointRow, type WebhooksRepo } from './webhooks.repo.js';

export interface DispatcherOptions {
  /** Waits before each retry, in ms; after the last, a delivery is failed. */
  retrySchedule: number[];
  /** Endpoints served at once: one slow endpoint holds one of these, never the others. */
  endpoints: number;
  /** Deliveries in flight to one endpoint. */
  perEndpoint: number;
  /** How long a claimed delivery stays out of others' reach (longer than any attempt can take). */
  leaseMs: number;
  /** Attempts this process starts a second at most: delivery is background work, callers come first. */
  rate: number;
  /** The same while any state's refresh runs, so the refresh keeps its pace (decision 0041). */
  refreshRate: number;
}

/** The body of a webhook: Standard Webhooks' `type`, `timestamp` and `data` (the event as the feed has it). */
export function webhookPayload(seq: number, event: ChangeEvent) {
  return { type: event.type, timestamp: event.detected_at, data: publishedChange(seq, event) };
}

/** The `webhook-signature` header: the current secret's signature, and the previous one's while it is valid. */
function signature(endpoint: EndpointRow, id: string, at: Date, body: string): string {
  const previous = previousSecret(endpoint, at);
  return [endpoint.secret, ...(previous ? [previous] : [])].map((s) => new Webhook(s).sign(id, at, body)).join(' ');
}

/**
 * Sends stored deliveries: polls for endpoints with deliveries due (and is nudged when events are
 * published), serves each due endpoint with its own worker, records every attempt, and schedules
 * retries. At least once: a delivery is claimed by a lease, so a crash mid-send sends it again.
 */
export function createDispatcher(
  deps: {
    repo: WebhooksRepo;
    events: (seqs: number[]) => Promise<(ChangeEvent & { seq: number })[]>;
    transport: WebhookTransport;
    now: () => Date;
    log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
    /** Hears each attempt's outcome (metrics). */
    attempted?: (outcome: 'succeeded' | 'retrying' | 'failed') => void;
    /** Whether a refresh of any state is running (the side store's leases); read at most once a second. */
    refreshing?: () => Promise<boolean>;
    /** The time attempts are paced by (monotonic ms) and its wait; tests pass a timer they move. */
    timer?: { now(): number; wait(ms: number): Promise<void> };
  },
  options: DispatcherOptions,
) {
  const { repo, transport, now, log } = deps;
  const workers = new Map<string, Promise<void>>();
  const pollMs = Math.min(1000, Math.max(20, Math.min(...options.retrySchedule, 2000) / 2));
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let ticking: Promise<void> | undefined;
  let again = false;
  // Lanes waiting for a slot (up to lanes/rate seconds) are woken by stop(), which then need not wait them out.
  const waking = new Set<() => void>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timeout);
        waking.delete(wake);
        resolve();
      };
      const timeout = setTimeout(wake, ms);
      waking.add(wake);
    });
  const pace = deps.timer ?? { now: () => performance.now(), wait: sleep };
  let refreshing = false;
  let refreshReadAt = -Infinity;
  let nextSlot = -Infinity;

  /** Waits for this process's next attempt slot: slots are 1/rate apart, the rate read as each is given. */
  async function paced() {
    const t = pace.now();
    const at = Math.max(t, nextSlot);
    nextSlot = at + 1000 / (refreshing ? options.refreshRate : options.rate);
    if (at > t) await pace.wait(at - t);
  }

  async function readRefreshing() {
    const t = pace.now();
    if (!deps.refreshing || t - refreshReadAt < 1000) return;
    refreshReadAt = t;
    const was = refreshing;
    refreshing = await deps.refreshing();
    if (refreshing !== was) {
      log.info({ rate: refreshing ? options.refreshRate : options.rate }, refreshing ? 'a refresh is running: webhook attempts paced down' : 'no refresh is running: webhook attempts at their usual pace');
    }
  }

  /** Sends a delivery: its stored payload, or its change event's (undefined once the event is no longer kept). */
  async function attempt(endpoint: EndpointRow, d: DeliveryRow, event: (ChangeEvent & { seq: number }) | undefined) {
    const at = now();
    let statusCode: number | null = null;
    let error: string | null = null;
    let excerpt: string | null = null;
    let refused = false;
    const payload = d.payload ?? (event && webhookPayload(event.seq, event));
    if (!payload) {
      error = 'the event is no longer kept';
    } else {
      const body = JSON.stringify(payload);
      try {
        const res = await transport.post(endpoint.url, {
          'webhook-id': d.id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signature(endpoint, d.id, at, body),
        }, body);
        statusCode = res.status;
        excerpt = res.excerpt;
      } catch (err) {
        error = ((err as Error).message || String(err)).slice(0, 500);
        // The address rules refuse the URL (the configuration changed, say): no retry can pass them.
        refused = err instanceof WebhookRefusedError;
      }
    }
    const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const gone = statusCode === 410;
    const retryIn = options.retrySchedule[d.retries_used];
    const outcome = ok
      ? { status: 'succeeded' as const }
      : gone || refused || !payload || retryIn === undefined
        ? { status: 'failed' as const }
        : { retryAt: new Date(now().getTime() + retryIn) };
    await repo.recordAttempt(d.id, { at, statusCode, error, excerpt, outcome });
    deps.attempted?.(ok ? 'succeeded' : 'retryAt' in outcome ? 'retrying' : 'failed');
    if (gone) {
      // Standard Webhooks: 410 Gone asks the sender to stop.
      await repo.disableEndpoint(endpoint.id, 'the receiver answered 410 Gone', now());
      log.warn({ endpoint: endpoint.id }, 'webhook endpoint disabled: it answered 410 Gone');
    }
  }

  /** One of an endpoint's lanes: claims one due delivery at a time until none is left. */
  async function lane(endpointId: string) {
    while (running) {
      await paced();
      if (!running) return;
      // Read each time: a disabled endpoint or a rotated secret takes effect at the next delivery.
      const endpoint = await repo.endpointById(endpointId);
      if (!endpoint || endpoint.status !== 'enabled') return;
      const at = now();
      const [d] = await repo.claim(endpointId, at, new Date(at.getTime() + options.leaseMs), 1);
      if (!d) return;
      const [event] = d.event_seq === null ? [] : await deps.events([d.event_seq]);
      await attempt(endpoint, d, event);
    }
  }

  /** An endpoint's worker: `perEndpoint` lanes, so one slow answer holds up one lane, not the endpoint. */
  async function serve(endpointId: string) {
    await Promise.all(Array.from({ length: options.perEndpoint }, () => lane(endpointId)));
  }

  async function tick() {
    if (!running) return;
    await readRefreshing();
    const due = await repo.dueEndpoints(now());
    for (const id of due) {
      if (workers.has(id) || workers.size >= options.endpoints) continue;
      const worker = serve(id)
        .catch((err) => log.error({ err, endpoint: id }, 'webhook delivery failed'))
        .finally(() => {
          workers.delete(id);
          nudge();
        });
      workers.set(id, worker);
    }
  }

  /** Looks for due deliveries now (events were published, or a worker freed a slot). */
  function nudge() {
    if (!running) return;
    if (ticking) {
      again = true;
      return;
    }
    ticking = tick()
      .catch((err) => log.error({ err }, 'webhook dispatch failed'))
      .finally(() => {
        ticking = undefined;
        if (again) {
          again = false;
          nudge();
        }
      });
  }

  return {
    nudge,
    start() {
      if (running) return;
      running = true;
      timer = setInterval(nudge, pollMs);
      timer.unref();
      nudge();
    },
    /** Stops claiming, and waits for the attempts in flight to be recorded. */
    async stop() {
      running = false;
      clearInterval(timer);
      for (const wake of [...waking]) wake();
      await ticking;
      await Promise.all(workers.values());
    },
  };
}
export type Dispatcher = ReturnType<typeof createDispatcher>;
