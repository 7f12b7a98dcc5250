import { randomUUID } from 'node:crypto';
import { BROKERAGE_RELATIONSHIP_TYPES } from '../../domain/vocabulary.js';
import { concatExports } from '../bulk-file.js';
import type { SearchSource, SearchVersion } from '../search-source-port.js';
import type { LadybugEngine } from './engine.js';

/**
 * The search index's source on LadybugDB: every write goes through this process, so the version is
 * the file as it was opened and the writes since; an export reads the committed graph. It names no
 * states: each version's index is built whole (13-21 s at 3M in a worker, decision 0007).
 */
export function ladybugSearchSource(graph: LadybugEngine, queries: { rows: string; brokers: string; brokerages: string }): SearchSource {
  // A graph in memory, or one written since its last clean close, is never the same twice.
  const opened = graph.stamp() ?? `unstamped-${randomUUID()}`;
  let writes = 0;
  graph.onWrite(() => void (writes += 1));
  const version = (): SearchVersion => ({ graph: `${opened}:${writes}` });
  return {
    version: async () => version(),
    // Three exports, one after another (`atOnce` is Neo4j's; not tried here): one query of the
    // brokerage rows (UNION ALL) fills a 512 MB buffer pool at 3M credentials.
    exportRows: () =>
      concatExports([
        () => graph.exportFile(queries.rows),
        () => graph.exportFile(queries.brokers, { types: [...BROKERAGE_RELATIONSHIP_TYPES] }),
        () => graph.exportFile(queries.brokerages),
      ]),
    onWrite: (listener) => graph.onWrite(listener),
    readAt: () => undefined,
    closedVersion(built) {
      const closedAs = graph.stamp();
      // The next open of this file finds it unwritten: the version it will have.
      return closedAs && built.graph === version().graph ? { graph: `${closedAs}:0` } : undefined;
    },
  };
}
