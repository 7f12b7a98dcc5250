/**
 * The columns of a search row, in the order of each engine's search-rows.cypher: the folded fields
 * the graph stores for search, and the status a reader sees.
 */
export const SEARCH_INDEX_COLUMNS = ['state', 'id', 'sort_key', 'license_number', 'status', 'license_type', 'f_full', 'f_first', 'f_last', 'f_business', 'f_city'] as const;

/**
 * The columns of a brokerage row, in the order of each engine's search-brokers.cypher: what the
 * brokerage filter matches for credential `id`. Either a brokerage-type SUPERVISES in it (its dates,
 * never a null `effective_from`; `names`: the supervisor's folded full and business names joined
 * by a space) or an AFFILIATED_WITH brokerage (no dates: always; `names`: its folded name).
 */
export const SEARCH_BROKER_COLUMNS = ['state', 'id', 'effective_from', 'effective_to', 'names'] as const;

/** How an export is read. */
export interface ExportOptions {
  /** Its queries at the same time, where the engine can (a first build: nothing is served yet, so it may take every core). */
  atOnce?: boolean;
}

/**
 * The credentials whose search rows moved, and their rows at the later version (one it does not
 * show has none): a new bulk file as exportRows writes them (the caller's to remove), or, for a
 * step of one publish, a pack per state as SearchRowsPacker made it when the run wrote them.
 */
export type ChangedRows = { ids: string[]; file: string } | { ids: string[]; packed: Uint8Array[] };

/**
 * Packs a refresh's changed search rows (SEARCH_INDEX_COLUMNS and SEARCH_BROKER_COLUMNS rows) as the
 * search index reads them (src/search): given to an engine's writes by the composition root, so
 * that the run that changed the rows builds them once, not each serving process.
 */
export type SearchRowsPacker = (rows: (string | null)[][]) => Promise<Uint8Array>;

/** What an export would show now: equal graph tokens, equal rows. */
export interface SearchVersion {
  /** Moves with every change an export would show. */
  graph: string;
  /** The generation readers see (engines with generations): an export reads it. */
  generation?: number;
  /**
   * Per state, a token that moves whenever that state's rows do; undefined where the engine does
   * not tell (then any move of `graph` means every state is read again).
   */
  states?: Record<string, string>;
}

/**
 * What the search index (src/search/) needs of a graph, on either engine: the search rows of every
 * credential a reader sees, and when they change. The index is text retrieval beside the graph;
 * the graph keeps what the graph is for (docs/decisions/0029).
 */
export interface SearchSource {
  /**
   * What an export would show now. Asked by every search, so cheap: a value at most a second old
   * unless `fresh` (LadybugDB: this process's writes; Neo4j: the published generation, imports).
   */
  version(fresh?: boolean): Promise<SearchVersion>;
  /**
   * Writes the search row (SEARCH_INDEX_COLUMNS) of every credential of `states` (default all) as
   * `at` shows them, then their brokerage rows (SEARCH_BROKER_COLUMNS), to a new bulk file, the
   * caller's to remove; undefined when a later publish may
   * have taken rows from under the export (read again at a newer version).
   */
  exportRows(at: SearchVersion, states?: string[], options?: ExportOptions): Promise<string | undefined>;
  /**
   * The rows of `states` that moved from `from` to `to` (ChangedRows), where the engine kept them
   * for each step between (Neo4j: each refresh's run); undefined where it did not for one of the
   * states (then they are read whole).
   */
  changedRows?(from: SearchVersion, to: SearchVersion, states: string[]): Promise<ChangedRows | undefined>;
  /** Hears each write of this process commit. */
  onWrite(listener: () => void): void;
  /** Pins this request's graph reads to `generation` (the snapshot an index shows); a no-op without generations. */
  readAt(generation: number | undefined): void;
  /** The generation this request's graph reads are already pinned to (a read began before its search), if any. */
  pinnedGeneration?(): Promise<number | undefined>;
  /** Whether a running request's reads are pinned to `generation`. */
  holds?(generation: number): boolean;
  /**
   * The index this process serves shows `generation` from now on (undefined: none): what it shows
   * stays in the graph until it shows a later one, so that its searches read whole snapshots
   * however long it takes to catch up (engines with generations; Neo4j: readers.ts).
   */
  serving?(generation: number | undefined): void;
  /**
   * After a clean close, the version an index built at `built` is kept on disk for (LadybugDB: the
   * file's stamp as close left it), or undefined when it may not be kept (it misses a write, or
   * the graph is in memory). Without it, an index is kept with its own version.
   */
  closedVersion?(built: SearchVersion): SearchVersion | undefined;
}
