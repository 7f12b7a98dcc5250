// The server: what `npm start` runs once main.ts has read the configuration and said so.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import { createApp } from './app.js';
import type { Config } from './config.js';
import type { SqlStore } from './store/sql-store.js';
import { buildDeps, compose, mailSetup, searchIndex, watchMetrics, webhookSetup } from './deps.js';
import { metricsApp } from './http/observe.js';
import { listen } from './http/server.js';
import { adminCommands } from './modules/admin/admin.commands.js';
import { adminRoutes } from './modules/admin/admin.routes.js';
import { removeServerHandle, writeServerHandle } from './server-handle.js';
import { IMPORT_RUNS } from './ingest/import/import-events.js';
import { demoAccount, noAccountYet, prepareGraph, prepareWebhooks } from './start-up.js';

const USAGE_FLUSH_MS = 1000;

/** Opens the stores, prepares them, listens, then starts the background work; stops on SIGTERM and SIGINT. */
export async function serve(config: Config, logger: Logger, opening?: Promise<SqlStore>) {
  // Metrics only when the operator asks for them (a port of their own, or a token on the API port).
  const metrics = config.METRICS_PORT !== undefined || config.METRICS_TOKEN ? (await import('./metrics/prometheus.js')).prometheusMetrics() : undefined;
  const root = compose(config, { logger, webhooks: webhookSetup(config), metrics, store: opening });
  // The graph and the side store open side by side (PGlite runs in a worker thread of its own).
  const [graph, store] = await Promise.all([root.graph(), root.store()]).catch(async (err) => {
    await root.close();
    throw err;
  });
  const side = await root.side();
  const imports = await root.imports();
  await prepareGraph(graph, imports, config.DEMO_DATA, logger);
  const refresh = await root.refresh();
  // Change events of a refresh a crash interrupted follow what its graph unit did.
  await side.changes.recoverAll((source, runId) => (source === IMPORT_RUNS ? imports.landedRun(runId) : refresh.landedRun(source, runId)));

  const adminToken = randomBytes(24).toString('base64url');
  const run = adminCommands({
    accounts: side.accounts,
    imports,
    refresh,
    rejectsDir: path.join(config.dataDir, 'rejects'),
    leases: side.refreshLeases,
  });
  // The operator endpoint exists for the embedded stores, which only one process can open.
  const adminRouter = graph.embedded || store.kind === 'pglite' ? adminRoutes(adminToken, run) : undefined;
  const index = searchIndex(graph, logger, path.join(config.dataDir, 'search-index.snapshot'));
  const deps = buildDeps(graph, logger, config, side, index, mailSetup(config, logger));
  if (metrics) watchMetrics(metrics, graph, store, side, deps);
  const app = createApp(
    { ...deps, adminRouter, metrics: metrics && { requests: metrics.requests, shed: metrics.shed, exposition: metrics.exposition, token: config.METRICS_TOKEN } },
    { recordVerifications: config.RECORD_VERIFICATIONS },
  );
  const server = await listen(app, { port: config.PORT, host: config.HOST, keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS });
  const metricsServer =
    metrics && config.METRICS_PORT !== undefined
      ? await listen(metricsApp(metrics.exposition), { port: config.METRICS_PORT, host: config.METRICS_HOST, keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS })
      : undefined;
  // A stop asked for while the start finishes (the demo account, webhooks) is a stop too.
  let flusher: NodeJS.Timeout | undefined;
  let pruner: NodeJS.Timeout | undefined;
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      logger.warn('in-flight requests did not finish in time; closing connections');
      server.closeAllConnections();
    }, config.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    metricsServer?.close();
    server.close(async () => {
      clearInterval(flusher);
      clearInterval(pruner);
      let code = 0;
      // Chunks in hand are committed (or given back) before the stores close.
      await deps.jobRunner.stop();
      await side.dispatcher.stop();
      try {
        await side.meter.flush();
      } catch (err) {
        logger.error({ err }, 'final usage flush failed');
        code = 1;
      }
      removeServerHandle(config.dataDir);
      await root.close();
      try {
        index?.persist();
      } catch (err) {
        logger.warn({ err }, 'the search index could not be kept for the next start');
      }
      logger.info('stopped');
      logger.flush?.();
      process.exit(code);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  const { port } = server.address() as AddressInfo;
  const base = `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${port}`;
  if (adminRouter) writeServerHandle(config.dataDir, { pid: process.pid, url: `http://127.0.0.1:${port}`, token: adminToken });
  logger.info({ port, dataDir: config.dataDir, graph: graph.name, store: store.kind }, `listening on ${base}  (API docs: ${base}/docs)`);
  if (metricsServer) logger.info({ metrics_port: (metricsServer.address() as AddressInfo).port }, 'metrics on GET /metrics');
  // A stop that comes during these steps closes the stores under them: their failure is the stop's.
  try {
    if (graph.embedded && store.kind === 'pglite') await demoAccount({ accounts: side.accounts, licensees: deps.licensees, jobs: deps.jobs }, store, base);
    else await noAccountYet(side.accounts, logger);

    // Deliveries stored before a stop (or by `npm run ingest` meanwhile) go now, to URLs the rules still allow.
    await prepareWebhooks(side.webhooks, config.WEBHOOK_ALLOW_PRIVATE_URLS, logger);
  } catch (err) {
    if (stopping) return;
    throw err;
  }
  if (stopping) return;
  side.dispatcher.start();
  await deps.jobRunner.start();
  flusher = setInterval(() => side.meter.flush().catch((err) => logger.error({ err }, 'usage flush failed')), USAGE_FLUSH_MS);
  flusher.unref();
  // Expired e-mail links and sessions, and past rate-limit windows; at the start and hourly (the
  // verification log's statistics are refreshed with it: PGlite runs no autovacuum).
  const prune = () => {
    deps.dashboard.prune().catch((err) => logger.error({ err }, 'dashboard prune failed'));
    side.changes.prune().catch((err) => logger.error({ err }, 'change events prune failed'));
    side.pruneDeliveries().catch((err) => logger.error({ err }, 'webhook delivery log prune failed'));
    side.verifications.prune().catch((err) => logger.error({ err }, 'verification records prune failed'));
    deps.jobs.prune().catch((err) => logger.error({ err }, 'verification jobs prune failed'));
    side.fairShare?.prune().catch((err) => logger.error({ err }, 'rate limit windows prune failed'));
  };
  prune();
  pruner = setInterval(prune, 3600_000);
  pruner.unref();

}

