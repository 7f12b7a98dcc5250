import { pin } from '../read-scope.js';
import type { QueryFiles } from '../query-files.js';
import { SEARCH_INDEX_COLUMNS, type SearchSource, type SearchVersion } from '../search-source-port.js';
import { GENERATION_PIN, type Neo4jEngine } from './engine.js';

/** How long a version read serves (another process's publish is seen within it), as the engine's generation. */
const VERSION_TTL_MS = 1_000;

/**
 * The search index's source on Neo4j: the rows of the published generation, read in one streamed
 * query. The version moves with each publish and each import's end, whichever process made it,
 * and each state's token (Jurisdiction.rows_version) with the runs that changed its rows.
 */
export function neo4jSearchSource(graph: Neo4jEngine, files: QueryFiles): SearchSource {
  const versionQuery = files.get('engine/neo4j/versions/search-version');
  const rowsQuery = files.get('engine/neo4j/search-rows');
  let cached: { at: number; value: Promise<SearchVersion> } | undefined;
  const read = async (): Promise<SearchVersion> => {
    const [r] = await graph.read(versionQuery, { g: 0 });
    const generation = Number(r?.generation ?? 0);
    const states = Object.fromEntries(((r?.states ?? []) as [string, unknown][]).map(([code, token]) => [code, String(token ?? 0)]));
    return { graph: `${r?.store ?? 'new'}:${generation}:${Number(r?.imports ?? 0)}`, generation, states };
  };
  graph.onWrite(() => (cached = undefined));
  return {
    async version(fresh = false) {
      if (fresh || !cached || Date.now() - cached.at >= VERSION_TTL_MS) {
        const value = read();
        cached = { at: Date.now(), value };
        value.catch(() => (cached = undefined));
      }
      return cached.value;
    },
    exportRows: (at, states) => graph.exportFile(rowsQuery, { g: at.generation ?? 0, states: states ?? Object.keys(at.states ?? {}) }, SEARCH_INDEX_COLUMNS),
    onWrite: (listener) => graph.onWrite(listener),
    readAt(generation) {
      if (generation !== undefined) pin(GENERATION_PIN, generation);
    },
  };
}
