// The server's entry point: reads the configuration and says what is starting before the rest of
// the code loads (about a second), then serves (serve.ts).
import pino from 'pino';
import { loadConfig } from './config.js';
import { ConfigError, DataDirLockedError } from './errors.js';

async function main() {
  const config = loadConfig();
  const pretty = config.LOG_FORMAT === 'pretty' || (config.LOG_FORMAT === 'auto' && process.stdout.isTTY);
  const logger = pino({
    level: config.LOG_LEVEL,
    transport: pretty ? { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } : undefined,
  });
  logger.info(
    { dataDir: config.dataDir, graph: config.NEO4J_URI ? 'neo4j' : 'ladybug', store: config.DATABASE_URL ? 'postgres' : 'pglite' },
    `starting: graph ${config.NEO4J_URI ? `Neo4j at ${new URL(config.NEO4J_URI).host}` : `LadybugDB in ${config.graphPath}`}, accounts store ${config.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${config.pglitePath}`}`,
  );
  // The accounts store opens (in a worker thread) while the rest of the code loads.
  const store = import('./store/open-store.js').then((m) => m.openStore(config, logger));
  store.catch(() => undefined); // serve awaits it and handles its failure
  const { serve } = await import('./serve.js');
  await serve(config, logger, store);
}

main().catch((err) => {
  if (err instanceof DataDirLockedError || err instanceof ConfigError) console.error(`cannot start: ${err.message}`);
  else console.error('cannot start:', err);
  process.exit(1);
});
