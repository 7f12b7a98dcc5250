import type { GraphTx, Row } from './graph-port.js';

/** A credential as `records` reads it: its fields by name, dates as ISO text, notes as a list. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type StoredCredential = Record<string, any>;

/** A source's run as the graph records it when the run lands: its snapshot, summary (JSON), when, and the file's rows. */
export interface SourceRun {
  source: string;
  snapshot: string;
  run: string;
  now: string;
  rows: number;
}

/** Runs one import batch as a transaction of its own. */
export type ImportBatch = <T>(work: (t: GraphTx) => Promise<T>) => Promise<T>;

/**
 * What imports and refreshes write: the graph's facts (credentials, their licensees, relationships
 * and their dates). Each engine folder implements it and keeps, inside these calls and its runs,
 * whatever it derives from those facts (LadybugDB's supervision lists and documents, Neo4j's
 * versions, in-force relationships and name grams). Every call takes a non-empty batch.
 */
export interface GraphWrites {
  /**
   * An import: `fn` writes through `batch`, a transaction per batch; what the engine derives from
   * the states the batches touched follows once the run ends, also when a batch failed.
   */
  importRun<R>(fn: (batch: ImportBatch) => Promise<R>): Promise<R>;
  /**
   * A refresh of `state`: all of `fn` lands as one unit for readers, with what the engine derives
   * from it. `onWait` hears of another run it waits for.
   */
  refreshRun<T>(state: string, fn: (t: GraphTx) => Promise<T>, onWait?: (holder: string) => void): Promise<T>;
  /** Jurisdictions and the sources that publish them (jurisdictions.csv rows); a refresh's show when it lands. */
  writeJurisdictions(t: GraphTx, rows: Row[]): Promise<void>;
  /** A source's run, recorded as the run lands. */
  recordRun(t: GraphTx, run: SourceRun): Promise<void>;
  /** Credential records written as they are (an import batch), held by their licensees; `context`: their business-name brokerage links. */
  upsertCredentials(t: GraphTx, rows: Row[], context: Row[]): Promise<void>;
  /** Relationships whose both ends are on file, with `supervisor_state` and `affiliate_state`; returns the lines of those written. */
  upsertRelationships(t: GraphTx, rows: Row[]): Promise<number[]>;
  /** Removes the states' demo credentials, and the licensees and brokerages left with none; gives the states that had some. */
  removeDemo(t: GraphTx, states: string[]): Promise<string[]>;
  /** The states' credential counts (`rows`: rows of the source file), as of `now`. */
  writeCounts(t: GraphTx, rows: { state: string; rows: number }[], now: string): Promise<void>;
  /** The credentials `ids` on file as they stand in the unit (their published fields and when they were seen), by id. */
  records(t: GraphTx, ids: string[]): Promise<Map<string, StoredCredential>>;
  /** Credentials listed again unchanged: their snapshot, verification date and notes. */
  touchCredentials(t: GraphTx, rows: Row[]): Promise<void>;
  /** Credentials new to the graph; the licensees they hold, one row each: `licensees` on file, `newLicensees` not. */
  createCredentials(t: GraphTx, created: Row[], licensees: Row[], newLicensees: Row[]): Promise<void>;
  /** Credentials on file with new values; `relinked`: ids among them whose brokerage link (AFFILIATED_WITH) is rewritten next. */
  updateCredentials(t: GraphTx, rows: Row[], relinked: string[]): Promise<void>;
  /** Credentials on file held by another licensee now (id, licensee_id, entity_type, display_name, licensee_key): it alone holds them. */
  moveHolders(t: GraphTx, rows: Row[]): Promise<void>;
  /** Business-name brokerage links: the credentials `ids` lose theirs, then each `context` row (id, brokerage_id, state, brokerage_name, f_name, source) links its credential. */
  relinkBrokerages(t: GraphTx, ids: string[], context: Row[]): Promise<void>;
  /** Credentials a full snapshot no longer lists, as records now read (inactive, with their new notes and left_source_on). */
  markLeft(t: GraphTx, rows: Row[]): Promise<void>;
  /** Opens relationships whose both ends are on file. */
  createLinks(t: GraphTx, rows: Row[]): Promise<void>;
  /** Open relationships that end on their effective_to. */
  closeLinks(t: GraphTx, rows: Row[]): Promise<void>;
  /** Open relationships that go (they would end before they began). */
  deleteLinks(t: GraphTx, rows: Row[]): Promise<void>;
  /** Ended relationships open again, with their role and source. */
  reopenLinks(t: GraphTx, rows: Row[]): Promise<void>;
  /** The state's credentials as a refresh reads them first: id, licensee_id, source, row_hash, snapshot_date, left_source_on (nulls as null). */
  existing(t: GraphTx, state: string): AsyncIterable<Row>;
  /** The open relationships into the state's credentials from `source`: supervisor_id, affiliate_id, relationship_type, affiliate_role, effective_from, effective_to. */
  links(t: GraphTx, state: string, source: string): AsyncIterable<Row>;
}
