import path from 'node:path';
import pino, { type Logger } from 'pino';
import type { AppDeps } from '../app.js';
import type { Config } from '../config.js';
import { systemClock, type Clock } from '../domain/clock.js';
import type { GraphAdapters } from '../graph/adapters-port.js';
import { observeReads } from '../graph/graph-port.js';
import { loadQueryFiles, queryNamer, type QueryFiles } from '../graph/query-files.js';
import type { Metrics } from '../metrics/prometheus.js';
import { createAccountsRepo } from '../modules/accounts/accounts.repo.js';
import { createAccountsService } from '../modules/accounts/accounts.service.js';
import { createRefreshLeases } from '../operator/refresh-leases.repo.js';
import type { WebhookTransport } from '../modules/webhooks/transport.js';
import { openStore } from '../store/open-store.js';
import { openPostgresWriter } from '../store/postgres-writer.js';
import type { SqlStore } from '../store/sql-store.js';
import { importsOf, openGraph, refreshOf } from './graph.js';
import { searchIndexOver } from '../search/holder.js';
import { mailSetup, type MailSetup } from './mail.js';
import { changeLogOf, sideServices, type SideServices } from './side.js';

export interface ComposeOptions {
  clock?: Clock;
  logger?: Logger;
  /** The process's metrics (the server's, when the operator asked for them). */
  metrics?: Metrics;
  /** A graph already open (a test's, a bench's): used instead of the configured one, and closed with the root. */
  graph?: GraphAdapters | Promise<GraphAdapters>;
  /** The side store, already open or opening (the server starts it while its code loads; a test's). */
  store?: SqlStore | Promise<SqlStore>;
  /** This process delivers webhooks (it runs the workers): what imports and refreshes commit nudges its dispatcher. */
  delivers?: boolean;
  /** How webhooks go out, when not the configured undici transport (a test's DNS). */
  transport?: WebhookTransport;
  /** Where the dashboard's mail goes, when not as configured (mailSetup). */
  mail?: MailSetup;
  /** Committed runs get their alerts derived from the graph (default); false for a side store used without a graph (a test's). */
  alerts?: boolean;
  /**
   * Hears every statement the graph runs, reads and writes, with its milliseconds: by the query
   * file it comes from, or its first line (the ingest command's --timings).
   */
  statements?: (name: string, ms: number) => void;
}

/**
 * The composition root every entry point builds through (the server, the command lines, tests,
 * benches): each part is made the first time it is asked for, with only what it needs, and `close`
 * closes what was opened. Defaults come from `config` alone. The app's code, its services and the
 * workers load when first asked for: a command line that never serves does not load them.
 */
export function compose(config: Config, options: ComposeOptions = {}) {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? pino({ level: 'silent' });
  // The query files, read when a part that runs queries is first made (a side store alone needs none).
  let queryFiles: QueryFiles | undefined;
  const files = () => (queryFiles ??= loadQueryFiles());
  const once = <T>(make: () => Promise<T>) => {
    let made: Promise<T> | undefined;
    return () => (made ??= make());
  };
  const opened: { graph?: GraphAdapters; store?: SqlStore; side?: SideServices; index?: ReturnType<typeof searchIndexOver> } = {};
  const graph = once(async () => {
    const started = performance.now();
    const g = await (options.graph ?? openGraph(config, files(), logger));
    if (!options.graph) logger.info({ graph: g.engine.name, elapsed_ms: Math.round(performance.now() - started) }, `graph opened (${config.NEO4J_URI ? 'Neo4j' : `LadybugDB in ${config.graphPath}`})`);
    if (options.metrics) observeReads(g.engine, options.metrics.graphReads(g.engine.name, queryNamer(files())));
    const heard = options.statements;
    if (heard) {
      const nameOf = queryNamer(files(), (query) => query.trim().split('\n')[0].slice(0, 80));
      g.engine.observeWrites((query, ms) => heard(nameOf(query), ms));
      observeReads(g.engine, (query) => {
        const started = performance.now();
        return () => heard(nameOf(query), performance.now() - started);
      });
    }
    return (opened.graph = g);
  });
  const store = once(async () => (opened.store = await (options.store ?? openStore(config, logger))));
  // One reads for the process: the services' and the alerts' (LadybugDB's keep caches).
  const reads = once(async () => (await graph()).reads(clock.today));
  const alertReads = options.alerts === false ? undefined : reads;
  const side = once(async () => {
    const s = await store();
    // PGlite on disk gets its verification records through a journal beside its folder.
    const journal = s.kind === 'pglite' && s.folder ? path.join(path.dirname(s.folder), 'verifications.journal') : undefined;
    // PostgreSQL gets them through a connection on a thread of its own.
    const recordWrites = s.kind === 'postgres' && config.DATABASE_URL ? openPostgresWriter(config.DATABASE_URL) : undefined;
    return (opened.side = sideServices(s, config, { clock, logger, metrics: options.metrics, transport: options.transport, journal, recordWrites, reads: alertReads }));
  });
  const leases = once(async () => createRefreshLeases(await store()));
  const changeLog = once(async () => (options.delivers ? (await side()).changes.log : changeLogOf(await store(), clock, config, logger, alertReads)));
  // The search index of either engine; kept for the next start only beside the configured graph.
  const index = once(async () => {
    const g = await graph();
    const snapshot = options.graph ? undefined : config.searchIndexPath;
    const holder = searchIndexOver(g.searchSource(), (err) => logger.error({ err }, 'search index build failed'), snapshot);
    opened.index = holder;
    return holder;
  });
  const services = once(async () => {
    const s = await side();
    const { appServices } = await import('./services.js');
    const deps = appServices(await graph(), s, config, { logger, index: await index(), mail: options.mail ?? mailSetup(config, logger), reads: await reads() });
    if (options.metrics) watchMetrics(options.metrics, opened.graph!, s, deps);
    return deps;
  });
  return {
    config,
    /** The query files (read on first use). */
    files,
    clock,
    logger,
    graph,
    store,
    /** Everything the side store holds, with the webhook dispatcher (started by the workers). */
    side,
    accounts: once(async () => createAccountsService(createAccountsRepo(await store()), clock.now)),
    leases,
    /** The canonical import, recording change events. */
    imports: once(async () => importsOf(await graph(), files(), clock, await changeLog())),
    /** State refreshes, recording change events, one per state across processes. */
    refresh: once(async () => refreshOf(await graph(), files(), clock, await changeLog(), await leases())),
    index,
    /** The services over both stores (the app's dependencies). */
    services,
    /** The HTTP app; `extra`: what the server adds (the operator's router, the metrics' exposition). */
    app: async (extra: Pick<AppDeps, 'adminRouter' | 'metrics'> = {}) => {
      const { createApp } = await import('../app.js');
      return createApp({ ...(await services()), ...extra }, { recordVerifications: config.RECORD_VERIFICATIONS });
    },
    /** The background work of a server: webhook deliveries, job lanes, the meter's flush, prunes. */
    workers: once(async () => (await import('./workers.js')).createWorkers(await side(), await services(), logger)),
    /** Closes the side store, then the graph after what its writes left for later (graph/adapters-port.ts). */
    async close() {
      const { graph: g, store: s, side: d, index } = opened;
      for (const k of ['graph', 'store', 'side', 'index'] as const) delete opened[k];
      index?.close();
      await d?.verifications.close();
      await s?.close();
      await g?.close();
      try {
        // Kept beside the configured graph only (a graph the caller passed in gets no snapshot file).
        index?.persist();
      } catch (err) {
        logger.warn({ err }, 'the search index could not be kept for the next start');
      }
    },
  };
}
export type Root = ReturnType<typeof compose>;

/** Points the metrics' scrape-time gauges at what the root opened. */
function watchMetrics(metrics: Metrics, graph: GraphAdapters, side: SideServices, deps: AppDeps) {
  metrics.watch({
    graph: { engine: graph.engine.name, connections: graph.engine.connections, gateHolds: graph.engine.gateHolds },
    sideStore: { kind: side.store.kind, connections: side.store.connections },
    meter: side.meter.state,
    webhookBacklog: side.webhookBacklog,
    sources: deps.coverage.freshness,
    readiness: deps.readiness,
    searchIndex: deps.searchIndex,
    now: () => side.clock.now(),
  });
}

export { importsOf, openGraph, refreshOf } from './graph.js';
export { mailSetup, noMail, type MailSetup } from './mail.js';
export { sideServices, webhookTransport, type SideServices } from './side.js';
