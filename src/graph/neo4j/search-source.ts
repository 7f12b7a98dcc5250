import { pin } from '../read-scope.js';
import type { QueryFiles } from '../query-files.js';
import { SEARCH_INDEX_COLUMNS, type SearchSource } from '../search-source-port.js';
import { GENERATION_PIN, type Neo4jEngine } from './engine.js';

/** How long a version read serves (another process's publish is seen within it), as the engine's generation. */
const VERSION_TTL_MS = 1_000;

/**
 * The search index's source on Neo4j: the rows of the published generation, read in one streamed
 * query; the version moves with each publish and each import's end, whichever process made it.
 */
export function neo4jSearchSource(graph: Neo4jEngine, files: QueryFiles): SearchSource {
  const versionQuery = files.get('engine/neo4j/versions/search-version');
  const rowsQuery = files.get('engine/neo4j/search-rows');
  let cached: { at: number; value: Promise<{ version: string; generation: number }> } | undefined;
  const read = async () => {
    const [r] = await graph.read(versionQuery, { g: 0 });
    const generation = Number(r?.generation ?? 0);
    return { version: `${r?.store ?? 'new'}:${generation}:${Number(r?.imports ?? 0)}`, generation };
  };
  graph.onWrite(() => (cached = undefined));
  return {
    async version() {
      if (!cached || Date.now() - cached.at >= VERSION_TTL_MS) {
        const value = read();
        cached = { at: Date.now(), value };
        value.catch(() => (cached = undefined));
      }
      return (await cached.value).version;
    },
    async exportRows() {
      const { version, generation } = await read();
      return { file: await graph.exportFile(rowsQuery, { g: generation }, SEARCH_INDEX_COLUMNS), version, generation };
    },
    onWrite: (listener) => graph.onWrite(listener),
    readAt(generation) {
      if (generation !== undefined) pin(GENERATION_PIN, generation);
    },
  };
}
