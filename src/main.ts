import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { createApp } from './app.js';
import { loadConfig } from './config.js';
import { buildDeps, importRepo, loadQueryFiles, openGraph } from './deps.js';
import { DataDirLockedError } from './errors.js';
import { importFolder } from './ingest/canonical-import.js';
import { adminRoutes } from './modules/admin/admin.routes.js';
import { removeServerHandle, writeServerHandle } from './server-handle.js';

const DEMO_SEEDS = fileURLToPath(new URL('../seeds/demo/', import.meta.url));

async function main() {
  const config = loadConfig();
  const pretty = config.LOG_FORMAT === 'pretty' || (config.LOG_FORMAT === 'auto' && process.stdout.isTTY);
  const logger = pino({
    level: config.LOG_LEVEL,
    transport: pretty ? { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } : undefined,
  });
  const files = loadQueryFiles();
  const graph = await openGraph(config, files);

  const imports = importRepo(graph, files);
  // Demo data only ever goes into the embedded engine.
  if (config.DEMO_DATA && graph.name === 'ladybug' && (await imports.isEmpty())) {
    const summary = await importFolder(imports, DEMO_SEEDS);
    logger.info(
      { credentials: summary.credentials, relationships: summary.relationships, rejected: summary.rejected.length },
      `loaded the demo dataset from ${path.relative(process.cwd(), DEMO_SEEDS) || DEMO_SEEDS} (start with DEMO_DATA=false for an empty graph)`,
    );
  }

  const adminToken = randomBytes(24).toString('base64url');
  const adminRouter = adminRoutes(adminToken, (folder) => importFolder(imports, folder));
  const app = createApp({ ...buildDeps(graph, files, logger, config), adminRouter });
  const server = app.listen(config.PORT, config.HOST);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const base = `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${port}`;
  writeServerHandle(config.dataDir, { pid: process.pid, url: `http://127.0.0.1:${port}`, token: adminToken });
  logger.info({ port, dataDir: config.dataDir }, `listening on ${base}  (API docs: ${base}/docs)`);

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
    server.close(async () => {
      removeServerHandle(config.dataDir);
      await graph.close();
      logger.info('stopped');
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err) => {
  if (err instanceof DataDirLockedError) console.error(`cannot start: ${err.message}`);
  else console.error('cannot start:', err);
  process.exit(1);
});
