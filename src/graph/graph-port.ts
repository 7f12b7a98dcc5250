// The graph port: what services and repositories need from a graph engine. Every engine
// adapter (LadybugDB embedded, Neo4j) implements it and passes the conformance suite.

export type Params = Record<string, unknown>;
export type Row = Record<string, unknown>;

export interface GraphTx {
  run(query: string, params?: Params): Promise<Row[]>;
  /**
   * Engines with a bulk path (LadybugDB: a delimited file) run `query` over `rows`. A `// @load`
   * line becomes a LOAD clause whose columns keep the rows' names; a `// @from` line becomes the
   * FROM clause of a COPY, which takes the columns in the rows' key order. `dates` name the DATE
   * columns; list columns arrive joined by $notes_separator. Absent: use run() with UNWIND.
   */
  bulk?(query: string, rows: Row[], dates: string[], params?: Params): Promise<void>;
  /**
   * As bulk(), over a file a producer wrote in the engine's bulk dialect (LadybugDB: the header
   * and csvRow lines of bulk-file.ts), for loads too large to pass as rows. The file stays the
   * caller's.
   */
  bulkFile?(query: string, file: BulkFile, params?: Params): Promise<void>;
  /** As GraphEngine.exportFile, seeing this unit's writes. */
  exportFile?(query: string, params?: Params): Promise<string>;
  /** Engines that keep written pages in memory until a checkpoint (LadybugDB): writes them out. */
  checkpoint?(): Promise<void>;
}

export interface BulkFile {
  path: string;
  columns: string[];
  /** The DATE columns. */
  dates: string[];
  /** Some field holds a line break (the file cannot be read in parallel). */
  lineBreaks: boolean;
}

/** The files the canonical import's bulk path writes, one kind per node or relationship table. */
export type BulkKind = 'credentials' | 'licensees' | 'jurisdictionLinks' | 'holds' | 'links' | 'supervisorLists' | 'affiliateLists';

/**
 * Where the bulk path puts what it parsed: an engine that loads each file inside its unit
 * (LadybugDB's COPY), or the input files of Neo4j's offline importer. Files are in the bulk
 * dialect of bulk-file.ts with the sink's header line.
 */
export interface BulkSink {
  /** The header line of a file of `kind`. */
  header(kind: BulkKind, columns: string[], dates: string[]): string;
  /** Whether the engine keeps the supervision read models (the list kinds). */
  readonly readModels: boolean;
  /** Takes a finished file; its path is the caller's to remove afterwards. */
  load(kind: BulkKind, file: BulkFile): Promise<void>;
  /** A statement over rows no file holds, after the files it depends on, in order. */
  run(query: string, params: Params): Promise<unknown>;
}

export interface GraphEngine {
  readonly name: 'ladybug' | 'neo4j';
  /** The engine runs inside this process on a local file (LadybugDB): one process opens it at a time. */
  readonly embedded: boolean;
  /** Read-only query; results normalized to plain JSON values (dates as YYYY-MM-DD). */
  read(query: string, params?: Params): Promise<Row[]>;
  /**
   * Engines with an export path (LadybugDB: COPY TO): writes every row of a large read-only
   * query to a new file in the engine's bulk dialect without a header (read it back with
   * readBulkFile), for results too large for read(). The file is the caller's to remove.
   */
  exportFile?(query: string, params?: Params): Promise<string>;
  /** Engines whose writes all go through this process (LadybugDB): `listener` runs after each committed write. */
  onWrite?(listener: () => void): void;
  /**
   * Engines on a file (LadybugDB): an identifier of the file as this process found it at open, or
   * as close left it; equal stamps mean the same content. Undefined while open after a write, when
   * the file was not cleanly closed, and for an in-memory graph.
   */
  stamp?(): string | undefined;
  /** All statements inside `fn` commit together or not at all. Writes are serialized. */
  writeTransaction<T>(fn: (tx: GraphTx) => Promise<T>): Promise<T>;
  /**
   * Many statements applied as one all-or-nothing unit that may be too large for one
   * transaction (a state refresh). Readers keep seeing the previous data until it completes.
   */
  writeLarge<T>(fn: (tx: GraphTx) => Promise<T>): Promise<T>;
  /** Applies the engine's schema file; idempotent. */
  applySchema(statements: string[]): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
