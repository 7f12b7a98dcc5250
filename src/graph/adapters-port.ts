import type { BulkLoader, GraphEngine } from './graph-port.js';
import type { GraphReads } from './reads-port.js';
import type { SearchIndexHolder } from './search-port.js';
import type { GraphWrites } from './writes-port.js';

/** One engine's adapters, made by its folder's open(): the composition root wires them by hand. */
export interface GraphAdapters {
  engine: GraphEngine;
  writes: GraphWrites;
  /** The services' reads, through the name-search index where the engine keeps one. */
  reads(today: () => string, index?: SearchIndexHolder): GraphReads;
  /** The engine's first-load path (LadybugDB's COPY); Neo4j has none in the process. */
  bulk?: BulkLoader;
  /**
   * The name-search index beside an engine without text indexes (LadybugDB); its first build
   * starts at once, unless `snapshot` (a file) holds the index of this very graph file.
   */
  searchIndex?(onError: (err: unknown) => void, snapshot?: string): SearchIndexHolder;
  /** Finishes what the writes left for later (Neo4j: versions no reader sees), then closes the engine. */
  close(): Promise<void>;
}
