// The server: what `npm start` runs once main.ts has read the configuration and said so.
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import { compose, type Root } from './compose/index.js';
import type { Config } from './config.js';
import { metricsApp } from './http/observe.js';
import { listen } from './http/server.js';
import { IMPORT_RUNS } from './ingest/import/import-events.js';
import { adminCommands } from './operator/admin.commands.js';
import { adminRoutes } from './operator/admin.routes.js';
import { removeServerHandle, writeServerHandle } from './server-handle.js';
import type { SqlStore } from './store/sql-store.js';
import { demoAccount, noAccountYet, prepareGraph, prepareWebhooks } from './start-up.js';

/** Opens the stores, prepares them, listens, then starts the background work; stops on SIGTERM and SIGINT. */
export async function serve(config: Config, logger: Logger, opening?: Promise<SqlStore>) {
  // Metrics only when the operator asks for them (a port of their own, or a token on the API port).
  const metrics = config.METRICS_PORT !== undefined || config.METRICS_TOKEN ? (await import('./metrics/prometheus.js')).prometheusMetrics() : undefined;
  const root = compose(config, { logger, metrics, store: opening, delivers: true });
  // The graph and the side store open side by side (PGlite runs in a worker thread of its own).
  const [graph, store] = await Promise.all([root.graph(), root.store()]).catch(async (err) => {
    await root.close();
    throw err;
  });
  const [side, imports] = await Promise.all([root.side(), root.imports()]);
  await prepareGraph(graph.engine, imports, config.DEMO_DATA, logger);
  const refresh = await root.refresh();
  // Change events of a refresh a crash interrupted follow what its graph unit did.
  await side.changes.recoverAll((source, runId) => (source === IMPORT_RUNS ? imports.landedRun(runId) : refresh.landedRun(source, runId)));

  // The operator endpoint exists for the embedded stores, which only one process can open.
  const adminToken = randomBytes(24).toString('base64url');
  const operated = graph.engine.embedded || store.kind === 'pglite';
  const run = adminCommands({ accounts: side.accounts, imports, refresh, rejectsDir: path.join(config.dataDir, 'rejects'), leases: side.refreshLeases, signer: side.signer });
  const app = await root.app({
    adminRouter: operated ? adminRoutes(adminToken, run) : undefined,
    metrics: metrics && { requests: metrics.requests, shed: metrics.shed, exposition: metrics.exposition, token: config.METRICS_TOKEN },
  });
  const server = await listen(app, { port: config.PORT, host: config.HOST, keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS });
  const metricsServer =
    metrics && config.METRICS_PORT !== undefined
      ? await listen(metricsApp(metrics.exposition), { port: config.METRICS_PORT, host: config.METRICS_HOST, keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS })
      : undefined;
  const stop = stopOnSignals(root, server, metricsServer, config, logger);
  const { port } = server.address() as AddressInfo;
  const base = `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${port}`;
  if (operated) writeServerHandle(config.dataDir, { pid: process.pid, url: `http://127.0.0.1:${port}`, token: adminToken });
  logger.info({ port, dataDir: config.dataDir, graph: graph.engine.name, store: store.kind }, `listening on ${base}  (API docs: ${base}/docs)`);
  if (metricsServer) logger.info({ metrics_port: (metricsServer.address() as AddressInfo).port }, 'metrics on GET /metrics');
  // A stop that comes during these steps closes the stores under them: their failure is the stop's.
  try {
    const services = await root.services();
    if (graph.engine.embedded && store.kind === 'pglite') await demoAccount({ accounts: side.accounts, licensees: services.licensees, jobs: services.jobs, verifications: services.verifications }, store, base);
    else await noAccountYet(side.accounts, logger);
    const unsigned = await side.signer.problem();
    if (unsigned) logger.warn(unsigned);
    // Deliveries stored before a stop (or by `npm run ingest` meanwhile) go now, to URLs the rules still allow.
    await prepareWebhooks(side.webhooks, config.WEBHOOK_ALLOW_PRIVATE_URLS, logger);
  } catch (err) {
    if (stop.stopping()) return;
    throw err;
  }
  if (!stop.stopping()) await (await root.workers()).start();
}

/** On SIGTERM or SIGINT: finish in-flight requests (closing connections after SHUTDOWN_TIMEOUT_MS), stop the workers, close the root. */
function stopOnSignals(root: Root, server: Server, metricsServer: Server | undefined, config: Config, logger: Logger) {
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
      const flushed = await (await root.workers()).stop();
      removeServerHandle(config.dataDir);
      await root.close();
      logger.info('stopped');
      logger.flush?.();
      process.exit(flushed ? 0 : 1);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  return { stopping: () => stopping };
}
