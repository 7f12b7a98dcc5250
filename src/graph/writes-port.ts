import type { BulkSink, GraphTx, Row } from './graph-port.js';

/**
 * How an engine stores what imports and refreshes write: the Cypher both engines share is in the
 * import and refresh repositories (src/ingest/); what differs lives in each engine's folder
 * (graph/ladybug/writes.ts: bulk files and read models; graph/neo4j/writes.ts: UNWIND batches).
 */
export interface EngineWrites {
  /** Credential rows as the engine stores them (Neo4j keeps no JSON document). */
  stored(rows: Row[]): Row[];
  /**
   * Rebuilds what the engine derives from the relationships of `states` (LadybugDB's read
   * models), last in a unit that wrote credentials or relationships there; nothing on others.
   */
  writeReadModels(t: GraphTx, states: Iterable<string>): Promise<void>;
  /** As writeReadModels, as a unit of its own. */
  refreshReadModels(states: Iterable<string>): Promise<void>;
  /** Whether the graph holds relationships without the derived data its engine keeps (written before it existed). */
  readModelsMissing(): Promise<boolean>;
  /** The JSON documents of credentials by id (credential-doc.ts), as they stand in the unit. */
  docs(t: GraphTx, ids: string[]): Promise<Map<string, string>>;
  /** After credentials `ids` were written by the shared import query: what the engine derives from their names (Neo4j's name grams). */
  credentialsWritten(t: GraphTx, ids: string[]): Promise<void>;
  /** Credentials listed again unchanged: their snapshot, verification date and notes. */
  touchCredentials(t: GraphTx, rows: Row[]): Promise<void>;
  /** Credentials new to the graph; the licensees they hold, one row each: `licensees` on file, `newLicensees` not. */
  createCredentials(t: GraphTx, created: Row[], licensees: Row[], newLicensees: Row[]): Promise<void>;
  /** Credentials on file with new values; `relinked`: ids among them whose brokerage link (AFFILIATED_WITH) is rewritten next. */
  updateCredentials(t: GraphTx, rows: Row[], relinked: string[]): Promise<void>;
  /** Credentials a full snapshot no longer lists (id, status, data_source_notes, left_source_on): inactive now. */
  markLeft(t: GraphTx, rows: Row[]): Promise<void>;
  /** After the unit's last createCredentials: what links its credentials to their state and licensee that the engine left till then (LadybugDB's one COPY into the state's node). */
  linkCreated(t: GraphTx, state: string): Promise<void>;
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
  /**
   * Engines whose refresh commits step by step and is published at its end (Neo4j's versions):
   * runs `fn` as such a unit; `onWait` hears of another run it waits for. Absent: writeLarge.
   */
  refreshUnit?<T>(fn: (t: GraphTx) => Promise<T>, onWait?: (holder: string) => void): Promise<T>;
  /** In the publish of a refresh unit: the state's counts as published (else the import repository's writeCounts). */
  writeCounts?(t: GraphTx, rows: { state: string; rows: number }[], now: string): Promise<void>;
  /** What refresh units leave to do once readers are done with what they replaced (Neo4j: old versions go); before the process ends. */
  settle?(): Promise<void>;
  /** Removes the state's demo credentials in a refresh unit (else the import repository's removeDemo). */
  removeDemo?(t: GraphTx, state: string): Promise<string[]>;
  /**
   * Engines that load files (LadybugDB's COPY): runs `fn` in one all-or-nothing unit with a sink
   * that loads each bulk file into its table. Absent: the import goes row by row.
   */
  bulkUnit?<T>(fn: (sink: BulkSink, t: GraphTx) => Promise<T>): Promise<T>;
}
