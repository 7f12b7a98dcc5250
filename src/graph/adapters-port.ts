import type { BulkLoader, GraphEngine } from './graph-port.js';
import type { GraphReads } from './reads-port.js';
import type { SearchSource } from './search-source-port.js';
import type { GraphWrites } from './writes-port.js';

/** One engine's adapters, made by its folder's open(): the composition root wires them by hand. */
export interface GraphAdapters {
  engine: GraphEngine;
  writes: GraphWrites;
  /** The services' reads. */
  reads(today: () => string): GraphReads;
  /** The engine's first-load path (LadybugDB's COPY); Neo4j has none in the process. */
  bulk?: BulkLoader;
  /** The search index's source: the graph's search rows and when they change (made once). */
  searchSource(): SearchSource;
  /** Finishes what the writes left for later (Neo4j: versions no reader sees), then closes the engine. */
  close(): Promise<void>;
}
