import fs from 'node:fs';
import { heldPins, pin, pinnedNow } from '../read-scope.js';
import type { QueryFiles } from '../query-files.js';
import { BROKERAGE_RELATIONSHIP_TYPES } from '../../domain/vocabulary.js';
import { concatExports } from '../bulk-file.js';
import { SEARCH_BROKER_COLUMNS, SEARCH_INDEX_COLUMNS, type SearchSource, type SearchVersion } from '../search-source-port.js';
import { GENERATION_PIN, type Neo4jEngine } from './engine.js';
import { neo4jRowChanges } from './row-changes.js';

/** How long a version read serves (another process's publish is seen within it), as the engine's generation. */
const VERSION_TTL_MS = 1_000;

/**
 * The search index's source on Neo4j: the rows of the published generation, read in one streamed
 * query. The version moves with each publish and each import batch, whichever process made it,
 * and each state's token (Jurisdiction.rows_version) with those that changed its rows.
 */
export function neo4jSearchSource(graph: Neo4jEngine, files: QueryFiles): SearchSource {
  const statesQuery = files.get('engine/neo4j/versions/search-states');
  const versionQuery = files.get('engine/neo4j/versions/search-version');
  const rowsQuery = files.get('engine/neo4j/search-rows');
  const brokersQuery = files.get('engine/neo4j/search-brokers');
  const brokeragesQuery = files.get('engine/neo4j/search-brokerages');
  const rowChanges = neo4jRowChanges(graph, files);
  let cached: { at: number; value: Promise<SearchVersion & { collected: number }> } | undefined;
  /** Each state's record count as last read: an export's expected size. */
  let counts = new Map<string, number>();
  const read = async () => {
    // The tokens between two reads of the version that agree: a publish or an import batch moves
    // both at once, and a state whose token lags the generation read with it would be served from
    // the index of before at the generation of after (its ids and totals of one, its records of the other).
    const at = (r?: Record<string, unknown>) => `${r?.store}:${Number(r?.generation ?? 0)}:${Number(r?.imports ?? 0)}`;
    for (let [before] = await graph.read(versionQuery, { g: 0 }); ; ) {
      const rows = await graph.read(statesQuery, { g: 0 });
      const [r] = await graph.read(versionQuery, { g: 0 });
      if (at(r) !== at(before)) {
        before = r;
        continue;
      }
      counts = new Map(rows.map((x) => [x.code as string, Number(x.rows ?? 0)]));
      return { graph: at(r), generation: Number(r?.generation ?? 0), states: Object.fromEntries(rows.map((x) => [x.code as string, String(x.token ?? 0)])), collected: Number(r?.collected ?? 0) };
    }
  };
  const version = (fresh = false) => {
    if (fresh || !cached || Date.now() - cached.at >= VERSION_TTL_MS) {
      const value = read();
      cached = { at: Date.now(), value };
      value.catch(() => (cached = undefined));
    }
    return cached.value;
  };
  graph.onWrite(() => (cached = undefined));
  return {
    version: async (fresh) => {
      const { collected: _, ...v } = await version(fresh);
      return v;
    },
    async exportRows(at, states, { atOnce = false } = {}) {
      const g = at.generation ?? 0;
      const codes = states ?? Object.keys(at.states ?? {});
      const rows = codes.reduce((n, c) => n + (counts.get(c) ?? 0), 0);
      const file = await graph.holding(g, () =>
        concatExports(
          [
            () => graph.exportFile(rowsQuery, { g, states: codes }, SEARCH_INDEX_COLUMNS, rows),
            () => graph.exportFile(brokersQuery, { g, states: codes, types: [...BROKERAGE_RELATIONSHIP_TYPES] }, SEARCH_BROKER_COLUMNS, rows),
            () => graph.exportFile(brokeragesQuery, { g, states: codes }, SEARCH_BROKER_COLUMNS, rows),
          ],
          atOnce,
        ),
      );
      // What a later publish replaced stays while the export reads (it holds $g: readers.ts), unless
      // collection stopped waiting for it (versions.ts): then rows it read may be gone.
      const now = await version(true);
      const whole = now.collected <= g;
      if (!whole) fs.rmSync(file, { force: true });
      return whole ? file : undefined;
    },
    changedRows: (from, to, states) => rowChanges.since(from, to, states),
    onWrite: (listener) => graph.onWrite(listener),
    readAt(generation) {
      if (generation !== undefined) pin(GENERATION_PIN, generation);
    },
    async pinnedGeneration() {
      const g = await pinnedNow(GENERATION_PIN);
      return g === undefined ? undefined : Number(g);
    },
    // A pin still being read is not counted: under steady traffic there is always one.
    holds: (generation) => heldPins(GENERATION_PIN).includes(generation),
    serving(generation) {
      // What a publish replaced stays until every serving process's index has taken the publish up.
      void graph.hold('search', generation).catch(() => undefined);
    },
  };
}
