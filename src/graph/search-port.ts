import type { SearchFilters } from '../domain/search-filters.js';

/** A page of a name search: ids in the documented result order, and the exact total. */
export interface NameSearch {
  /** Undefined for filters it cannot answer (the brokerage filter): the engine's own query answers them. */
  search(filters: SearchFilters, skip: number, limit: number): { ids: string[]; total: number } | undefined;
}

/**
 * A name-search index kept beside an engine without text indexes (LadybugDB's, in
 * graph/ladybug/search-index.ts), rebuilt after writes.
 */
export interface SearchIndexHolder {
  /** The index with every graph write committed before the call; waits for a rebuild when one is due. */
  current(): Promise<NameSearch>;
  /** An index has been built (searches need not wait for the first build). */
  ready(): boolean;
  /**
   * Keeps the index on disk when it holds every write and the graph is closed cleanly: the next
   * start on the same graph file reads it instead of rebuilding it. Call after closing the graph.
   */
  persist(): void;
}
