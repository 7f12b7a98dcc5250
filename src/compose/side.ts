import type { Config } from '../config.js';
import type { Clock } from '../domain/clock.js';
import type { Metrics } from '../metrics/prometheus.js';
import { createAccountsRepo } from '../modules/accounts/accounts.repo.js';
import { createAccountsService } from '../modules/accounts/accounts.service.js';
import { createFairShare } from '../modules/accounts/fair-share.js';
import { createMeter } from '../modules/accounts/metering.js';
import { createUsageRepo } from '../modules/accounts/usage.repo.js';
import { createRefreshLeases } from '../operator/refresh-leases.repo.js';
import { createChangesRepo } from '../modules/changes/changes.repo.js';
import { createChangesService } from '../modules/changes/changes.service.js';
import { createAlerts } from '../modules/changes/alerts.js';
import { createExpiryPass } from '../modules/changes/expiries.js';
import type { GraphReads } from '../graph/reads-port.js';
import { createDashboardRepo } from '../modules/dashboard/dashboard.repo.js';
import { createJobsRepo } from '../modules/jobs/jobs.repo.js';
import { createVerificationsRepo } from '../modules/verifications/verifications.repo.js';
import { createVerificationsService, directWriter } from '../modules/verifications/verifications.service.js';
import { createWatchlistRepo } from '../modules/watchlist/watchlist.repo.js';
import { createWatchlistService } from '../modules/watchlist/watchlist.service.js';
import { createDispatcher } from '../modules/webhooks/dispatcher.js';
import type { WebhookTransport } from '../modules/webhooks/transport.js';
import { undiciTransport } from '../modules/webhooks/undici-transport.js';
import { createWebhooksRepo } from '../modules/webhooks/webhooks.repo.js';
import { createWebhooksService } from '../modules/webhooks/webhooks.service.js';
import { openKeyring } from '../modules/receipts/keyring.js';
import { createSigner } from '../modules/receipts/signer.js';
import { createSigningKeysRepo } from '../modules/receipts/signing-keys.repo.js';
import { openJournal } from '../store/journal.js';
import type { OffThreadWriter } from '../store/postgres-writer.js';
import type { SqlStore } from '../store/sql-store.js';

export type SideConfig = Pick<
  Config,
  'CHANGE_RETENTION_DAYS' | 'SIGNING_KEYS' | 'signingKeysFile' | 'publicBaseUrl' | 'RATE_LIMITS' | 'WEBHOOK_RETRY_SCHEDULE' | 'WEBHOOK_CONNECT_TIMEOUT_MS' | 'WEBHOOK_TIMEOUT_MS' | 'WEBHOOK_ALLOW_PRIVATE_URLS' | 'WEBHOOK_RATE' | 'WEBHOOK_REFRESH_RATE'
>;

export type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };

export interface SideOptions {
  clock: Clock;
  logger: Log;
  metrics?: Metrics;
  /** How webhooks go out; default undici with the configured address rules and timeouts. */
  transport?: WebhookTransport;
  /** A folder for the journal that feeds PGlite its verification records (store/journal.ts). */
  journal?: string;
  /** PostgreSQL: the connection on a thread of its own that the verification records are written through (store/postgres-writer.ts). */
  recordWrites?: OffThreadWriter;
  /** The graph's reads, for deriving a committed run's alerts; without them no alerts are derived. */
  reads?: () => Promise<GraphReads>;
}

/** Finished webhook deliveries older than this leave the log. */
const DELIVERY_LOG_DAYS = 30;

/** How webhooks go out: undici with the configured address rules and timeouts. */
export const webhookTransport = (config: SideConfig) =>
  undiciTransport({ allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_URLS, connectTimeoutMs: config.WEBHOOK_CONNECT_TIMEOUT_MS, responseTimeoutMs: config.WEBHOOK_TIMEOUT_MS });

/**
 * What lives in the side store: accounts and metering, the dashboard's links and sessions, change
 * events, watchlists, webhook endpoints and deliveries, the verification log, roster jobs' rows.
 * The webhook dispatcher is made here; the root's workers start it.
 */
export function sideServices(store: SqlStore, config: SideConfig, o: SideOptions) {
  const { clock } = o;
  const accountsRepo = createAccountsRepo(store);
  const verificationsRepo = createVerificationsRepo(store);
  const recordWriter = o.journal
    ? openJournal(o.journal, verificationsRepo.insertJson, { onError: (err) => o.logger.error({ err }, 'verification records could not be stored; retrying') })
    : directWriter(verificationsRepo, o.recordWrites);
  const transport = o.transport ?? webhookTransport(config);
  const webhooksRepo = createWebhooksRepo(store);
  const changesRepo = createChangesRepo(store, (tx, runId, ownOnly) => webhooksRepo.fanOut(tx, runId, clock.now(), ownOnly));
  const derive = o.reads && createAlerts({ repo: changesRepo, reads: o.reads, now: clock.now, log: o.logger });
  const expiries = o.reads && createExpiryPass({ repo: changesRepo, reads: o.reads, now: clock.now, log: o.logger });
  const refreshLeases = createRefreshLeases(store);
  const dispatcher = createDispatcher(
    {
      repo: webhooksRepo,
      events: changesRepo.bySeqs,
      transport,
      now: clock.now,
      log: o.logger,
      attempted: o.metrics?.webhookAttempt,
      refreshing: async () => (await refreshLeases.running()).length > 0,
    },
    {
      retrySchedule: config.WEBHOOK_RETRY_SCHEDULE,
      endpoints: 32,
      perEndpoint: 8,
      leaseMs: config.WEBHOOK_CONNECT_TIMEOUT_MS + 2 * config.WEBHOOK_TIMEOUT_MS + 30_000,
      rate: config.WEBHOOK_RATE,
      refreshRate: config.WEBHOOK_REFRESH_RATE,
    },
  );
  const meter = createMeter(createUsageRepo(store), clock.now);
  const signer = createSigner({
    repo: createSigningKeysRepo(store),
    keyring: openKeyring({ env: config.SIGNING_KEYS, file: config.signingKeysFile }),
    issuer: config.publicBaseUrl,
    now: clock.now,
  });
  const rates = config.RATE_LIMITS;
  return {
    store,
    clock,
    accounts: createAccountsService(accountsRepo, clock.now),
    fairShare: rates !== 'off' ? createFairShare(store, rates, clock.now, o.metrics?.rateLimited, meter.quotaHeaders) : undefined,
    meter,
    dashboardRepo: createDashboardRepo(store),
    changes: createChangesService(changesRepo, clock, config.CHANGE_RETENTION_DAYS, dispatcher.nudge, derive),
    refreshLeases,
    /** The hourly expiry pass (with the graph's reads only). */
    expiries,
    watchlist: createWatchlistService(createWatchlistRepo(store), clock.now),
    webhooks: createWebhooksService({ repo: webhooksRepo, transport, now: clock.now, nudge: dispatcher.nudge }),
    dispatcher,
    /** Signs receipts; lists the keys that did (JWKS). */
    signer,
    verifications: createVerificationsService(verificationsRepo, clock, recordWriter, signer),
    /** What roster jobs keep in the side store (services.ts makes their service and runner, which verify on the graph). */
    jobsStore: { repo: createJobsRepo(store), soleProcess: store.kind === 'pglite' },
    webhookBacklog: () => webhooksRepo.backlog(clock.now()),
    pruneDeliveries: () => webhooksRepo.prune(new Date(clock.now().getTime() - DELIVERY_LOG_DAYS * 86_400_000)),
  };
}
export type SideServices = ReturnType<typeof sideServices>;

/**
 * The change log a process that does not deliver webhooks records into (the import and ingest
 * commands): their deliveries wait for a server's dispatcher; alerts are derived as a server's are.
 */
export function changeLogOf(store: SqlStore, clock: Clock, config: Pick<Config, 'CHANGE_RETENTION_DAYS'>, logger: Log, reads?: () => Promise<GraphReads>) {
  const webhooks = createWebhooksRepo(store);
  const repo = createChangesRepo(store, (tx, runId, ownOnly) => webhooks.fanOut(tx, runId, clock.now(), ownOnly));
  const derive = reads && createAlerts({ repo, reads, now: clock.now, log: logger });
  return createChangesService(repo, clock, config.CHANGE_RETENTION_DAYS, undefined, derive).log;
}
