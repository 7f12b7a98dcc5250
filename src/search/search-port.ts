import type { SearchFilters } from '../domain/search-filters.js';

/** A page of a name search: ids in the documented result order, and the exact total. */
export interface NameSearch {
  search(filters: SearchFilters, skip: number, limit: number): { ids: string[]; total: number };
}

/** What the index is doing, for /health, readiness and metrics. */
export interface SearchIndexStatus {
  /** `building` until the first index is built (or read from its file); then `ready`. */
  status: 'ready' | 'building';
  /** A build to bring it up to the graph is running (searches of the states it reads wait, then 503). */
  catching_up: boolean;
  /** The graph generation its rows show (engines with generations). */
  generation?: number;
  /** Bytes its arrays and texts hold. */
  bytes: number;
  rows: number;
  /** Where the index serving now came from: a file kept at the last clean stop, or an export of the graph. */
  built_from?: 'snapshot' | 'export' | 'load';
  /**
   * The last build: how many states it read, their rows, how many of those it read again from the
   * graph when it patched them (`changed`: the rows a publish changed; `prebuilt`: indexed by the
   * refresh that wrote them), and how long export and build took;
   * a patch is served over the index once its rows are indexed (`ms`), then merged in (`merge_ms`).
   */
  last_build?: { states: number; rows: number; changed?: number; prebuilt?: boolean; ms: number; read_ms?: number; index_ms?: number; merge_ms?: number };
}

/**
 * The one search index of the service, on either engine (src/search/holder.ts): kept current with
 * the graph, rebuilt from an export after each change.
 */
export interface SearchIndex {
  /**
   * A page from an index holding every write published before the call, the request's graph reads
   * then pinned to the snapshot it shows. Throws
   * SearchIndexBuildingError (503 with Retry-After) when no such index is ready within a moment.
   */
  search(filters: SearchFilters, skip: number, limit: number): Promise<{ ids: string[]; total: number }>;
  /** The index with every graph write committed before the call; waits for a rebuild when one is due. */
  current(): Promise<NameSearch>;
  /** An index has been built. */
  ready(): boolean;
  status(): SearchIndexStatus;
  /**
   * Keeps the index on disk when it holds every write: the next start on the same graph reads it
   * instead of rebuilding it. Call after closing the graph.
   */
  persist(): void;
}
