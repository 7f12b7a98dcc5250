import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { systemClock, type Clock } from '../domain/clock.js';
import type { GraphAdapters } from '../graph/adapters-port.js';
import { openLadybugAdapters } from '../graph/ladybug/adapters.js';
import { splitStatements, type QueryFiles } from '../graph/query-files.js';
import { createImportRepo } from '../ingest/import-repo.js';
import type { ChangeLog } from '../modules/changes/change-log.js';
import type { RefreshLeases } from '../ingest/refresh/refresh-lease.js';
import { createRefreshRepo } from '../ingest/refresh/refresh-repo.js';
import { packSearchRowsOffThread } from '../search/holder.js';

export type GraphConfig = Pick<
  Config,
  | 'graphPath'
  | 'GRAPH_BUFFER_POOL_MB'
  | 'GRAPH_CONNECTIONS'
  | 'GRAPH_QUERY_TIMEOUT_MS'
  | 'NEO4J_URI'
  | 'NEO4J_USER'
  | 'NEO4J_PASSWORD'
  | 'NEO4J_DATABASE'
  | 'NEO4J_POOL_SIZE'
  | 'NEO4J_ACQUISITION_TIMEOUT_MS'
  | 'NEO4J_CONNECTION_TIMEOUT_MS'
  | 'NEO4J_MAX_RETRY_MS'
>;

/**
 * Opens the configured graph engine (Neo4j when NEO4J_URI is set, else LadybugDB) with its schema,
 * and gives its adapter set: the one place that asks which engine.
 */
export async function openGraph(config: GraphConfig, files: QueryFiles, logger?: Pick<Logger, 'info'>): Promise<GraphAdapters> {
  // The driver is loaded only for Neo4j: on the embedded default it would hold 20 MB for nothing.
  if (config.NEO4J_URI) {
    const { openNeo4jAdapters } = await import('../graph/neo4j/adapters.js');
    return openNeo4jAdapters(
      {
        uri: config.NEO4J_URI,
        user: config.NEO4J_USER,
        password: config.NEO4J_PASSWORD,
        database: config.NEO4J_DATABASE,
        poolSize: config.NEO4J_POOL_SIZE,
        acquisitionTimeoutMs: config.NEO4J_ACQUISITION_TIMEOUT_MS,
        connectionTimeoutMs: config.NEO4J_CONNECTION_TIMEOUT_MS,
        queryTimeoutMs: config.GRAPH_QUERY_TIMEOUT_MS,
        maxRetryTimeMs: config.NEO4J_MAX_RETRY_MS,
      },
      files,
      splitStatements(files.get('schema/neo4j')),
      // A refresh packs its changed rows once for every serving process's search index.
      packSearchRowsOffThread,
    );
  }
  return openLadybugAdapters(
    { path: config.graphPath, bufferPoolMb: config.GRAPH_BUFFER_POOL_MB, connections: config.GRAPH_CONNECTIONS, queryTimeoutMs: config.GRAPH_QUERY_TIMEOUT_MS },
    files,
    splitStatements(files.get('schema/ladybug')),
    (ms) => logger?.info({ elapsed_ms: ms }, 'computed the supervision read models of a graph written before they existed'),
  );
}

/**
 * The canonical import over a graph's adapters.
 * @param changes where imports record their change events (the side store's change log; absent: none kept).
 */
export function importsOf(graph: GraphAdapters, files: QueryFiles, clock: Clock = systemClock, changes?: ChangeLog) {
  return createImportRepo(graph.engine, files, graph.writes, clock, changes, graph.bulk);
}

/**
 * State refreshes over a graph's adapters.
 * @param changes where the refresh records its change events (the side store's change log).
 * @param leases the side store's refresh leases: one refresh per state across processes.
 */
export function refreshOf(graph: GraphAdapters, files: QueryFiles, clock: Clock = systemClock, changes?: ChangeLog, leases?: RefreshLeases) {
  return createRefreshRepo(graph.engine, files, graph.writes, clock, changes, leases);
}
