import type { BulkLoader, GraphEngine, GraphTx, Row } from '../graph/graph-port.js';
import type { QueryFiles } from '../graph/query-files.js';
import type { GraphWrites, ImportBatch } from '../graph/writes-port.js';
import type { Clock } from '../domain/clock.js';
import type { ChangeLog } from '../modules/changes/change-log.js';

/**
 * The change events of one import unit (ingest/import/canonical-import.ts makes them): `before` reads,
 * inside the unit and before its writes, what they need of the graph as it was; `stage`, after the
 * writes (given their result), stages them in the change log and says whether there were any.
 * A unit that staged events marks itself landed in the graph (an ImportRun), in the same unit.
 */
export interface UnitEvents<R = unknown> {
  id: string;
  before?(t: GraphTx): Promise<void>;
  stage(t: GraphTx, result: R): Promise<boolean>;
}

/** The writes of one import run, a transaction each. */
export interface ImportBatches {
  upsertJurisdictions(rows: Row[]): Promise<void>;
  upsertCredentials(rows: Row[], context: Row[], events?: UnitEvents<void>): Promise<void>;
  /** Rows with `supervisor_state` and `affiliate_state`; returns the lines of the rows whose two credentials were on file. */
  upsertRelationships(rows: Row[], events?: UnitEvents<number[]>): Promise<number[]>;
  /** Gives the states whose demo credentials were removed (those that had some). */
  deleteDemoCredentials(states: string[]): Promise<string[]>;
  refreshCounts(rows: { state: string; rows: number }[], now: string, events?: UnitEvents<void>): Promise<void>;
}

/**
 * What an import reads and writes: the engine's writes (graph/writes-port.ts) in import batches,
 * and the Cypher of its bookkeeping, one query file each; every call takes a non-empty batch.
 * @param changes where imports record their change events (absent: none are kept).
 * @param bulk the engine's first-load path, where it has one.
 */
export function createImportRepo(graph: GraphEngine, files: QueryFiles, writes: GraphWrites, clock: Clock, changes?: ChangeLog, bulk?: BulkLoader) {
  const q = {
    jurisdictionCodes: files.get('import/jurisdiction-codes'),
    anyCredential: files.get('import/any-credential'),
    markRun: files.get('import/mark-run'),
    runLanded: files.get('import/run-landed'),
    forgetRun: files.get('import/forget-run'),
    stateHasRealCredentials: files.get('import/state-has-real-credentials'),
    relationshipEnds: files.get('import/relationship-ends'),
    loadedCounts: files.get('import/loaded-counts'),
  };
  const bulkQueries = {
    linkBrokerageContext: files.get('import/link-brokerage-context'),
    upsertRelationships: files.get('import/upsert-relationships'),
    writeCounts: files.get('import/write-counts'),
  };
  const markRun = (t: GraphTx, id: string) => t.run(q.markRun, { id, at: clock.now().toISOString() });
  /** Runs a unit's writes between its events' `before` and `stage`. */
  const withEvents = async <R>(t: GraphTx, events: UnitEvents<R> | undefined, write: () => Promise<R>): Promise<R> => {
    await events?.before?.(t);
    const result = await write();
    if (events && (await events.stage(t, result))) await markRun(t, events.id);
    return result;
  };
  const batches = (batch: ImportBatch): ImportBatches => ({
    upsertJurisdictions: (rows: Row[]) => batch((t) => writes.writeJurisdictions(t, rows)),
    upsertCredentials: (rows: Row[], context: Row[], events?: UnitEvents<void>) => batch((t) => withEvents(t, events, () => writes.upsertCredentials(t, rows, context))),
    upsertRelationships: (rows: Row[], events?: UnitEvents<number[]>) => batch((t) => withEvents(t, events, () => writes.upsertRelationships(t, rows))),
    deleteDemoCredentials: (states: string[]) => batch((t) => writes.removeDemo(t, states)),
    refreshCounts: (rows: { state: string; rows: number }[], now: string, events?: UnitEvents<void>) => batch((t) => withEvents(t, events, () => writes.writeCounts(t, rows, now))),
  });
  return {
    writes,
    /** The engine's first-load path, where it has one. */
    bulkLoader: bulk,
    /** When an import runs, unless told. */
    now: clock.now,
    /** An import's batches; what the engine derives from them follows as `fn` ends. */
    run: <R>(fn: (batches: ImportBatches) => Promise<R>) => writes.importRun((batch) => fn(batches(batch))),
    async jurisdictionCodes(): Promise<Set<string>> {
      return new Set((await graph.read(q.jurisdictionCodes)).map((r) => r.code as string));
    },
    /** Whether the graph holds no credential (outside a unit: a cheap check before one). */
    empty: async () => (await graph.read(q.anyCredential)).length === 0,
    bulk: {
      queries: bulkQueries,
      empty: async (t: GraphTx) => (await t.run(q.anyCredential)).length === 0,
      jurisdictionCodes: async (t: GraphTx) => new Set((await t.run(q.jurisdictionCodes)).map((r) => r.code as string)),
    },
    changes,
    markRun,
    /** Whether import run `id`'s unit landed (its mark is on file). */
    landedRun: async (id: string) => (await graph.read(q.runLanded, { id })).length > 0,
    /** A run's mark, once its events are committed, is needed no more. */
    forgetRun: (id: string) => graph.writeTransaction((t) => t.run(q.forgetRun, { id })).then(() => undefined),
    /** Whether the state holds a credential that is not a demo record (else an import is its first load). */
    hasRealCredentials: async (state: string) => (await graph.read(q.stateHasRealCredentials, { state })).length > 0,
    /** Inside a unit: the credentials by id, as they are before its writes. */
    records: (t: GraphTx, ids: string[]) => writes.records(t, ids),
    /** Inside a unit: the end dates on file of the relationships of `rows` (one import batch) that exist. */
    relationshipEnds: (t: GraphTx, rows: Row[]) =>
      t.run(q.relationshipEnds, { rows: rows.map((r) => ({ supervisor_id: r.supervisor_id, affiliate_id: r.affiliate_id, relationship_type: r.relationship_type, effective_from: r.effective_from })) }),
    /** Inside a unit: per state with credentials, how many, their relationships, and a source. */
    loadedCounts: (t: GraphTx, states: string[]) => t.run(q.loadedCounts, { states }),
  };
}
export type ImportRepo = ReturnType<typeof createImportRepo>;
