import path from 'node:path';
import type { Logger } from 'pino';
import type { AppDeps } from './app.js';
import { loadConfig, type Config } from './config.js';
import { systemClock, type Clock } from './domain/clock.js';
import type { GraphAdapters } from './graph/adapters-port.js';
import { observeReads, type GraphEngine } from './graph/graph-port.js';
import { openLadybugAdapters } from './graph/ladybug/adapters.js';
import type { GraphReads } from './graph/reads-port.js';
import { loadQueryFiles, queryNamer, splitStatements, type QueryFiles } from './graph/query-files.js';
import type { Metrics } from './metrics/prometheus.js';
import type { SearchIndexHolder } from './graph/search-port.js';
import { createImportRepo } from './ingest/import/import-repo.js';
import type { ChangeLog } from './ingest/change-log.js';
import type { RefreshLeases } from './ingest/refresh/refresh-lease.js';
import { createRefreshLeases } from './modules/admin/refresh-leases.repo.js';
import { createRefreshRepo } from './ingest/refresh/refresh-repo.js';
import { createAccountsRepo } from './modules/accounts/accounts.repo.js';
import { createAccountsService } from './modules/accounts/accounts.service.js';
import { createMeter } from './modules/accounts/metering.js';
import { createFairShare } from './modules/accounts/fair-share.js';
import type { RateLimits } from './domain/plans.js';
import { createUsageRepo } from './modules/accounts/usage.repo.js';
import { createChangesRepo } from './modules/changes/changes.repo.js';
import { createChangesService } from './modules/changes/changes.service.js';
import { createDashboardRepo } from './modules/dashboard/dashboard.repo.js';
import { createDispatcher, type DispatcherOptions } from './modules/webhooks/dispatcher.js';
import { createWebhooksRepo } from './modules/webhooks/webhooks.repo.js';
import { createWebhooksService } from './modules/webhooks/webhooks.service.js';
import { undiciTransport } from './modules/webhooks/undici-transport.js';
import { createWatchlistRepo } from './modules/watchlist/watchlist.repo.js';
import { createWatchlistService } from './modules/watchlist/watchlist.service.js';
import { createVerificationsRepo } from './modules/verifications/verifications.repo.js';
import { createVerificationsService, directWriter } from './modules/verifications/verifications.service.js';
import { openJournal } from './store/journal.js';
import { createDashboardService } from './modules/dashboard/dashboard.service.js';
import type { Mailer } from './mail/mailer.js';
import { noMailer, outboxMailer, smtpMailer } from './mail/nodemailer.js';
import { openStore, type StoreConfig } from './store/open-store.js';
import type { SqlStore } from './store/sql-store.js';
import { createCoverageService } from './modules/coverage/coverage.service.js';
import { createReadiness } from './modules/health/health.service.js';
import { createLegacyService } from './modules/legacy/legacy.service.js';
import { createLicenseesService } from './modules/licensees/licensees.service.js';
import { createRelationshipsService } from './modules/relationships/relationships.service.js';
import { createJobsRepo } from './modules/jobs/jobs.repo.js';
import { createJobsService } from './modules/jobs/jobs.service.js';
import { createJobRunner, type JobRunner } from './modules/jobs/jobs.runner.js';
import { lookupTraffic } from './http/traffic.js';

export type GraphConfig = Pick<Config, 'graphPath' | 'GRAPH_BUFFER_POOL_MB' | 'GRAPH_CONNECTIONS' | 'GRAPH_QUERY_TIMEOUT_MS'> &
  Partial<Pick<Config, 'NEO4J_URI' | 'NEO4J_USER' | 'NEO4J_PASSWORD' | 'NEO4J_DATABASE' | 'NEO4J_POOL_SIZE' | 'NEO4J_ACQUISITION_TIMEOUT_MS' | 'NEO4J_CONNECTION_TIMEOUT_MS' | 'NEO4J_MAX_RETRY_MS'>>;

// The adapters of each graph openGraph opened (or `adopt` was given), by its engine.
const adapterSets = new WeakMap<GraphEngine, GraphAdapters>();

/** Makes `set` the adapters of its engine (a bench or test that wraps an engine); returns the engine. */
export function adopt(set: GraphAdapters): GraphEngine {
  adapterSets.set(set.engine, set);
  return set.engine;
}

/** The adapters of a graph openGraph opened. */
export function adapters(graph: GraphEngine): GraphAdapters {
  const set = adapterSets.get(graph);
  if (!set) throw new Error('no adapters for this graph: open it with openGraph, or adopt its engine folder\'s adapters');
  return set;
}

/**
 * Opens the configured graph engine (Neo4j when NEO4J_URI is set, else LadybugDB) with its schema
 * and adapters (`adapters(graph)`): the one place that asks which engine.
 */
export async function openGraph(config: GraphConfig, files: QueryFiles, logger?: Pick<Logger, 'info'>): Promise<GraphEngine> {
  // The driver is loaded only for Neo4j: on the embedded default it would hold 20 MB for nothing.
  const set = config.NEO4J_URI
    ? await (await import('./graph/neo4j/adapters.js')).openNeo4jAdapters(
        {
          uri: config.NEO4J_URI,
          user: config.NEO4J_USER ?? 'neo4j',
          password: config.NEO4J_PASSWORD ?? '',
          database: config.NEO4J_DATABASE ?? 'neo4j',
          poolSize: config.NEO4J_POOL_SIZE ?? 50,
          acquisitionTimeoutMs: config.NEO4J_ACQUISITION_TIMEOUT_MS ?? 2000,
          connectionTimeoutMs: config.NEO4J_CONNECTION_TIMEOUT_MS ?? 2000,
          queryTimeoutMs: config.GRAPH_QUERY_TIMEOUT_MS,
          maxRetryTimeMs: config.NEO4J_MAX_RETRY_MS ?? 3000,
        },
        files,
        splitStatements(files.get('schema/neo4j')),
      )
    : await openLadybugAdapters(
        { path: config.graphPath, bufferPoolMb: config.GRAPH_BUFFER_POOL_MB, connections: config.GRAPH_CONNECTIONS, queryTimeoutMs: config.GRAPH_QUERY_TIMEOUT_MS },
        files,
        splitStatements(files.get('schema/ladybug')),
        (ms) => logger?.info({ elapsed_ms: ms }, 'computed the supervision read models of a graph written before they existed'),
      );
  return adopt(set);
}

export { openStore };

export type WebhookConfig = Pick<Config, 'WEBHOOK_RETRY_SCHEDULE' | 'WEBHOOK_CONNECT_TIMEOUT_MS' | 'WEBHOOK_TIMEOUT_MS' | 'WEBHOOK_ALLOW_PRIVATE_URLS'>;

const DEFAULTS = loadConfig({});

/** How webhooks go out: undici with the address rules, and the dispatcher's retry schedule. */
export function webhookSetup(config: Partial<WebhookConfig> = {}) {
  const c = { ...DEFAULTS, ...config };
  return {
    transport: undiciTransport({ allowPrivate: c.WEBHOOK_ALLOW_PRIVATE_URLS, connectTimeoutMs: c.WEBHOOK_CONNECT_TIMEOUT_MS, responseTimeoutMs: c.WEBHOOK_TIMEOUT_MS }),
    dispatch: {
      retrySchedule: c.WEBHOOK_RETRY_SCHEDULE,
      endpoints: 32,
      perEndpoint: 8,
      leaseMs: c.WEBHOOK_CONNECT_TIMEOUT_MS + 2 * c.WEBHOOK_TIMEOUT_MS + 30_000,
    } satisfies DispatcherOptions,
  };
}

type Log = { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };

/**
 * What lives in the side store: accounts and metering, the dashboard's links and sessions, change
 * events, watchlists, webhook endpoints and deliveries. The webhook dispatcher is made here and
 * started by whoever serves (main, or a test).
 */
export function accountsDeps(
  store: SqlStore,
  clock: Clock = systemClock,
  /** `verificationsJournal`: a folder for the journal that feeds PGlite its verification records (store/journal.ts). */
  /** `rateLimits`: each plan's request rate (absent or `off`: none). */
  options: { changeRetentionDays?: number; webhooks?: ReturnType<typeof webhookSetup>; logger?: Log; verificationsJournal?: string; rateLimits?: RateLimits | 'off'; metrics?: Metrics } = {},
) {
  const repo = createAccountsRepo(store);
  const log = options.logger ?? { warn() {}, error() {} };
  const verificationsRepo = createVerificationsRepo(store);
  const recordWriter = options.verificationsJournal
    ? openJournal(options.verificationsJournal, verificationsRepo.insertJson, { onError: (err) => log.error({ err }, 'verification records could not be stored; retrying') })
    : directWriter(verificationsRepo);
  const webhooks = options.webhooks ?? webhookSetup();
  const webhooksRepo = createWebhooksRepo(store);
  const changesRepo = createChangesRepo(store, (tx, runId) => webhooksRepo.fanOut(tx, runId, clock.now()));
  const dispatcher = createDispatcher(
    { repo: webhooksRepo, events: changesRepo.bySeqs, transport: webhooks.transport, now: clock.now, log, attempted: options.metrics?.webhookAttempt },
    webhooks.dispatch,
  );
  const meter = createMeter(createUsageRepo(store), clock.now);
  return {
    accounts: createAccountsService(repo, clock.now),
    fairShare: options.rateLimits && options.rateLimits !== 'off' ? createFairShare(store, options.rateLimits, clock.now, options.metrics?.rateLimited, meter.quotaHeaders) : undefined,
    meter,
    clock,
    dashboardRepo: createDashboardRepo(store),
    changes: createChangesService(changesRepo, clock, options.changeRetentionDays ?? 400, dispatcher.nudge),
    refreshLeases: createRefreshLeases(store),
    watchlist: createWatchlistService(createWatchlistRepo(store), clock.now),
    webhooks: createWebhooksService({ repo: webhooksRepo, transport: webhooks.transport, now: clock.now, nudge: dispatcher.nudge }),
    dispatcher,
    verifications: createVerificationsService(verificationsRepo, clock, recordWriter),
    /** What roster jobs keep in the side store (buildDeps makes their service and runner, which verifies on the graph). */
    jobsStore: { repo: createJobsRepo(store), soleProcess: store.kind === 'pglite' },
    webhookBacklog: () => webhooksRepo.backlog(clock.now()),
    /** Finished deliveries older than this leave the log. */
    pruneDeliveries: () => webhooksRepo.prune(new Date(clock.now().getTime() - DELIVERY_LOG_DAYS * 86_400_000)),
  };
}

const DELIVERY_LOG_DAYS = 30;

/** Where the dashboard's e-mail goes: where the deployment sends its mail. */
export interface MailSetup {
  mailer: Mailer;
  /** Links in e-mails start with it (PUBLIC_BASE_URL). */
  publicBaseUrl: string;
}

/**
 * SMTP when SMTP_URL is set; beside a production store without it, no mail (sign-up off, with a
 * warning, and never a token in a log); on the embedded defaults, an outbox folder under DATA_DIR
 * with each link in the log, so that the two-command start still lets a person sign up.
 */
export function mailSetup(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'NEO4J_URI' | 'DATABASE_URL' | 'dataDir' | 'publicBaseUrl'>, logger: Pick<Logger, 'info' | 'warn'>): MailSetup {
  const from = config.MAIL_FROM ?? 'Licensee Verification Service <no-reply@localhost>';
  const { publicBaseUrl } = config;
  if (config.SMTP_URL) return { mailer: smtpMailer(config.SMTP_URL, from), publicBaseUrl };
  if (config.NEO4J_URI || config.DATABASE_URL) {
    logger.warn('SMTP_URL is not set: sign-up and sign-in by e-mail are off (set SMTP_URL and MAIL_FROM to turn them on)');
    return { mailer: noMailer, publicBaseUrl };
  }
  const outbox = path.join(config.dataDir, 'outbox');
  const mailer = outboxMailer(outbox, from, (m) => logger.info({ to: m.to, file: m.file }, `e-mail to ${m.to} (${m.subject}) in ${outbox}${m.link ? `: open ${m.link}` : ''}`));
  return { mailer, publicBaseUrl };
}

/** The name-search index beside an engine that lacks text indexes (LadybugDB); undefined for Neo4j. */
export function searchIndex(graph: GraphEngine, logger: Pick<Logger, 'error'>, snapshot?: string): SearchIndexHolder | undefined {
  return adapters(graph).searchIndex?.((err) => logger.error({ err }, 'search index build failed'), snapshot);
}

/** The engine's reads: LadybugDB's from its read models (with its name index), Neo4j's by traversal. */
export function graphReads(graph: GraphEngine, today: () => string, index?: SearchIndexHolder): GraphReads {
  return adapters(graph).reads(today, index);
}

/** The composition root: engines -> repositories -> services, wired by hand. */
export function buildDeps(
  graph: GraphEngine,
  logger: Logger,
  config: Pick<Config, 'JSON_BODY_LIMIT' | 'TRUST_PROXY'> &
    Partial<Pick<Config, 'CORS_ORIGINS' | 'MAX_CONCURRENT_REQUESTS' | 'MAX_WAITING_REQUESTS' | 'REQUEST_WAIT_TIMEOUT_MS' | 'JOB_CONCURRENCY' | 'JOB_LEASE_MS' | 'JOB_RETENTION_DAYS' | 'RATE_GUARD'>>,
  side: ReturnType<typeof accountsDeps>,
  index: SearchIndexHolder | undefined,
  mail: MailSetup = { mailer: noMailer, publicBaseUrl: 'http://localhost' },
): AppDeps & { jobRunner: JobRunner } {
  // One clock for the process: the side store's, which the meter and accounts read too.
  const { clock } = side;
  const reads = graphReads(graph, clock.today, index);
  const licensees = createLicenseesService(reads, clock);
  const relationships = createRelationshipsService(reads, licensees, clock.today);
  const coverage = createCoverageService(reads, clock.now, () => side.refreshLeases.running());
  const { repo: jobsRepo, soleProcess } = side.jobsStore;
  const traffic = lookupTraffic();
  const retentionDays = config.JOB_RETENTION_DAYS ?? DEFAULTS.JOB_RETENTION_DAYS;
  // Started and stopped by whoever serves, beside the webhook dispatcher.
  const jobRunner = createJobRunner(
    { repo: jobsRepo, licensees, meter: side.meter, accounts: side.accounts, evidence: side.verifications, watchlist: side.watchlist, webhooks: side.webhooks, clock, log: logger, lookupsComing: traffic.busy },
    { concurrency: config.JOB_CONCURRENCY ?? DEFAULTS.JOB_CONCURRENCY, leaseMs: config.JOB_LEASE_MS ?? DEFAULTS.JOB_LEASE_MS, retentionDays, soleProcess },
  );
  return {
    logger,
    licensees,
    legacy: createLegacyService(reads, licensees),
    relationships,
    coverage,
    readiness: createReadiness([
      { name: 'graph', check: () => graph.ping() },
      ...(index ? [{ name: 'search_index', check: async () => void (index.ready() || (await index.current())) }] : []),
      { name: 'accounts_store', check: () => side.accounts.ping() },
    ]),
    accounts: side.accounts,
    fairShare: side.fairShare?.take,
    meter: side.meter,
    changes: side.changes,
    watchlist: side.watchlist,
    webhooks: side.webhooks,
    verifications: side.verifications,
    jobs: createJobsService({ repo: jobsRepo, clock, queued: jobRunner.wake }, { retentionDays }),
    jobRunner,
    traffic,
    clock,
    dashboard: createDashboardService({ repo: side.dashboardRepo, accounts: side.accounts, meter: side.meter, mailer: mail.mailer, clock, publicBaseUrl: mail.publicBaseUrl }),
    secureCookies: mail.publicBaseUrl.startsWith('https:'),
    jsonBodyLimit: config.JSON_BODY_LIMIT,
    trustProxy: config.TRUST_PROXY,
    corsOrigins: config.CORS_ORIGINS,
    rateGuard: config.RATE_GUARD,
    admission: config.MAX_CONCURRENT_REQUESTS
      ? { concurrency: config.MAX_CONCURRENT_REQUESTS, queue: config.MAX_WAITING_REQUESTS ?? 0, waitMs: config.REQUEST_WAIT_TIMEOUT_MS ?? 1000 }
      : undefined,
  };
}

/** @param changes where canonical imports record their change events (the side store's change log). */
export function importRepo(graph: GraphEngine, files: QueryFiles, clock: Clock = systemClock, changes?: ChangeLog) {
  const set = adapters(graph);
  return createImportRepo(graph, files, set.writes, clock, changes, set.bulk);
}

/**
 * @param changes where the refresh records its change events (the side store's change log).
 * @param leases the side store's refresh leases: one refresh per state across processes.
 */
export function refreshRepo(graph: GraphEngine, files: QueryFiles, clock: Clock = systemClock, changes?: ChangeLog, leases?: RefreshLeases) {
  return createRefreshRepo(graph, files, importRepo(graph, files, clock), changes, leases);
}

/** The change log imports and refreshes record into, without the webhook dispatcher (its deliveries are queued for the server's). */
function changeLogOf(store: SqlStore, clock: Clock, retentionDays: number): ChangeLog {
  const webhooks = createWebhooksRepo(store);
  return createChangesService(createChangesRepo(store, (tx, runId) => webhooks.fanOut(tx, runId, clock.now())), clock, retentionDays).log;
}

export type RootConfig = GraphConfig & StoreConfig & Pick<Config, 'CHANGE_RETENTION_DAYS'> & Partial<Pick<Config, 'RATE_LIMITS'>>;

/**
 * The composition root every entry point uses (the server, the import, ingest and admin command
 * lines, benches): each part is made the first time it is asked for, with only what it needs, and
 * `close` closes what was opened.
 */
export function compose(
  config: RootConfig,
  /** `webhooks`: the process delivers webhooks (the server): what imports and refreshes commit nudges its dispatcher. */
  /** `metrics`: the process's metrics (the server's, when the operator asked for them). */
  /** `store`: the side store, already opening (the server starts it while its code loads). */
  options: { logger?: Pick<Logger, 'info'> & Log; clock?: Clock; webhooks?: ReturnType<typeof webhookSetup>; metrics?: Metrics; store?: Promise<SqlStore> } = {},
) {
  const clock = options.clock ?? systemClock;
  const files = loadQueryFiles();
  const once = <T>(make: () => Promise<T>) => {
    let made: Promise<T> | undefined;
    return () => (made ??= make());
  };
  let opened: { graph?: GraphEngine; store?: SqlStore; side?: ReturnType<typeof accountsDeps> } = {};
  const graph = once(async () => {
    const started = performance.now();
    const g = await openGraph(config, files, options.logger);
    options.logger?.info({ graph: g.name, elapsed_ms: Math.round(performance.now() - started) }, `graph opened (${config.NEO4J_URI ? 'Neo4j' : `LadybugDB in ${config.graphPath}`})`);
    if (options.metrics) observeReads(g, options.metrics.graphReads(g.name, queryNamer(files)));
    return (opened.graph = g);
  });
  const store = once(async () => (opened.store = await (options.store ?? openStore(config, options.logger))));
  const side = once(async () => {
    const s = await store();
    // PGlite on disk gets its verification records through a journal beside its folder.
    const journal = s.kind === 'pglite' && config.pglitePath ? path.join(path.dirname(config.pglitePath), 'verifications.journal') : undefined;
    return (opened.side = accountsDeps(s, clock, {
      changeRetentionDays: config.CHANGE_RETENTION_DAYS,
      webhooks: options.webhooks,
      logger: options.logger,
      verificationsJournal: journal,
      rateLimits: config.RATE_LIMITS,
      metrics: options.metrics,
    }));
  });
  const leases = once(async () => createRefreshLeases(await store()));
  const changeLog = once(async () => (options.webhooks ? (await side()).changes.log : changeLogOf(await store(), clock, config.CHANGE_RETENTION_DAYS)));
  return {
    files,
    clock,
    graph,
    store,
    /** Everything the side store holds, with the webhook dispatcher (started by whoever serves). */
    side,
    accounts: once(async () => createAccountsService(createAccountsRepo(await store()), clock.now)),
    leases,
    /** The canonical import, recording change events (the graph opens first). */
    imports: once(async () => importRepo(await graph(), files, clock, await changeLog())),
    /** State refreshes, recording change events, one per state across processes. */
    refresh: once(async () => refreshRepo(await graph(), files, clock, await changeLog(), await leases())),
    /** Closes the store, then the graph after what its writes left for later (graph/adapters-port.ts). */
    async close() {
      const { graph: g, store: s, side: d } = opened;
      opened = {};
      await d?.verifications.close();
      await s?.close();
      if (g) await adapters(g).close();
    },
  };
}
export type Root = ReturnType<typeof compose>;

/** Points the metrics' scrape-time gauges at what the server opened. */
export function watchMetrics(metrics: Metrics, graph: GraphEngine, store: SqlStore, side: ReturnType<typeof accountsDeps>, deps: AppDeps) {
  metrics.watch({
    graph: { engine: graph.name, connections: graph.connections },
    sideStore: { kind: store.kind, connections: store.connections },
    meter: side.meter.state,
    webhookBacklog: side.webhookBacklog,
    sources: deps.coverage.freshness,
    readiness: deps.readiness,
    now: () => side.clock.now(),
  });
}

export { loadQueryFiles };
