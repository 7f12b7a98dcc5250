// The graph port: Cypher in and plain rows out, the part every engine adapter (LadybugDB
// embedded, Neo4j) implements alike and the conformance suite holds to the same answers. What only
// one engine has (LadybugDB's bulk and export paths, its write notices) stays in its folder.

export type Params = Record<string, unknown>;
export type Row = Record<string, unknown>;

export interface GraphTx {
  run(query: string, params?: Params): Promise<Row[]>;
  /** A read whose rows come as they are read, not all at once (a state's credentials); absent: use `run` (unwind.ts rowsOf). */
  stream?(query: string, params?: Params): AsyncIterable<Row>;
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
  /** What the sink keeps of the parsed rows beside their files (LadybugDB: its supervision lists); one per load. */
  parsed(): ParsedRows;
  /** The URL of the module that encodes what `parsed()` takes (ListFields): worker threads import it too. */
  listFields: string;
  /** Takes a finished file; its path is the caller's to remove afterwards. */
  load(kind: BulkKind, file: BulkFile): Promise<void>;
  /** A statement over rows no file holds, after the files it depends on, in order. */
  run(query: string, params: Params): Promise<unknown>;
}

/** A sink's encoding of a parsed row as ParsedRows takes it: the exports of its listFields module. */
export interface ListFields {
  credentialListFields(r: Row): string;
  relationshipListFields(r: Row): string;
  /** Whether the credentials file carries each record's JSON document (LadybugDB's read model); true unless the module says false. */
  credentialDocs?: boolean;
  /**
   * Whether the files name credentials, licensees and jurisdictions by integer keys (importKey in
   * bulk-file.ts) in a `key` column before the others, rather than by their ids: Neo4j's importer
   * maps integers at a fraction of what it spends on strings. False unless the module says true.
   */
  importKeys?: boolean;
}

/**
 * The parsed rows as a sink keeps them beside their files: credentials and relationships come
 * with their list fields (ListFields), and what the sink makes of them is written as its files.
 */
export interface ParsedRows {
  /** A credential loaded (`key`: its importKey); returns its number for addRelationship. */
  addCredential(id: string, listFields: string, key: number): number;
  /** A relationship loaded between two credentials added; returns its number for setRelationship. */
  addRelationship(supervisor: number, affiliate: number, listFields: string): number;
  /** A relationship listed again: its later row's values win, as on the upsert path. */
  setRelationship(n: number, listFields: string): void;
  /** Writes the lists into files in `dir` (while the engine loads what came before); `load` hands them to the sink. */
  write(dir: string, sink: Pick<BulkSink, 'header'>): { load(to: Pick<BulkSink, 'load'>): Promise<void> };
}

/** An engine's first-load path (LadybugDB's COPY): runs `fn` in one all-or-nothing unit with a sink that loads each bulk file. */
export type BulkLoader = <T>(fn: (sink: BulkSink, t: GraphTx) => Promise<T>) => Promise<T>;

export interface GraphEngine {
  readonly name: string;
  /** The engine runs inside this process on a local file (LadybugDB): one process opens it at a time. */
  readonly embedded: boolean;
  /** Read-only query; results normalized to plain JSON values (dates as YYYY-MM-DD). */
  read(query: string, params?: Params): Promise<Row[]>;
  /** All statements inside `fn` commit together or not at all. Writes are serialized. */
  writeTransaction<T>(fn: (tx: GraphTx) => Promise<T>): Promise<T>;
  /**
   * Many statements applied as one all-or-nothing unit that may be too large for one
   * transaction (a state refresh). Readers keep seeing the previous data until it completes.
   */
  writeLarge<T>(fn: (tx: GraphTx) => Promise<T>): Promise<T>;
  /** The engine's connections as they stand (metrics); absent where the engine tells nothing. */
  connections?(): PoolState;
  /** How long the engine has held reads at its gate, by the work that held them (metrics; LadybugDB: decision 0026). */
  gateHolds?(): GateHolds;
  /** Makes every write statement heard by `observe` from now on (the ingest command's --timings). */
  observeWrites(observe: StatementObserver): void;
  /** Applies the engine's schema file; idempotent. */
  applySchema(statements: string[]): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A pool of connections as it stands: how many there may be, in use, idle, and callers waiting for one. */
export interface PoolState {
  max: number;
  inUse: number;
  idle: number;
  waiting: number;
}

/** Work that holds every read of the served database: a checkpoint, the swap of a refreshed file, the close. */
export type GateWork = 'checkpoint' | 'swap' | 'close';
/** Since the process started: how many holds, their seconds in all, the longest. */
export type GateHolds = Partial<Record<GateWork, { holds: number; held_seconds: number; longest_seconds: number }>>;

/** Hears a write statement end: its text and the milliseconds it ran, a wait for its turn left out. */
export type StatementObserver = (query: string, ms: number) => void;

/** Runs a statement's `work`, timed for `observe` when there is one (failed statements too). */
export async function timedStatement<T>(observe: StatementObserver | undefined, query: string, work: () => Promise<T>): Promise<T> {
  if (!observe) return work();
  const started = performance.now();
  try {
    return await work();
  } finally {
    observe(query, performance.now() - started);
  }
}

/** Hears a read begin (its query text); the function it returns hears it end, and whether it failed. */
export type ReadObserver = (query: string) => (failed: boolean) => void;

/** Makes every read of `engine` heard by `observe` (metrics); the engine is returned. */
export function observeReads<E extends GraphEngine>(engine: E, observe: ReadObserver): E {
  const read = engine.read.bind(engine);
  engine.read = async (query, params) => {
    const done = observe(query);
    try {
      const rows = await read(query, params);
      done(false);
      return rows;
    } catch (err) {
      done(true);
      throw err;
    }
  };
  return engine;
}
