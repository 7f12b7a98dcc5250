import type { GraphEngine, GraphTx, Row } from '../graph/graph-port.js';
import type { QueryFiles } from '../graph/query-files.js';
import type { EngineWrites } from '../graph/writes-port.js';
import type { Clock } from '../domain/clock.js';
import type { ChangeLog } from './change-log.js';

/**
 * The change events of one import unit (ingest/canonical-import.ts makes them): `before` reads,
 * inside the unit and before its writes, what they need of the graph as it was; `stage`, after the
 * writes (given their result), stages them in the change log and says whether there were any.
 * A unit that staged events marks itself landed in the graph (an ImportRun), in the same unit.
 */
export interface UnitEvents<R = unknown> {
  id: string;
  before?(t: GraphTx): Promise<void>;
  stage(t: GraphTx, result: R): Promise<boolean>;
}

/**
 * The writes of an import, one query file each; every call takes a non-empty batch. `engine`
 * holds what the engines store differently (graph/writes-port.ts).
 */
/** @param changes where imports record their change events (absent: none are kept). */
export function createImportRepo(graph: GraphEngine, files: QueryFiles, engine: EngineWrites, clock: Clock, changes?: ChangeLog) {
  const q = {
    upsertJurisdictions: files.get('import/upsert-jurisdictions'),
    detachOtherSources: files.get('import/detach-other-sources'),
    upsertCredentials: files.get('import/upsert-credentials'),
    detachOtherHolders: files.get('import/detach-other-holders'),
    clearBrokerageContext: files.get('import/clear-brokerage-context'),
    linkBrokerageContext: files.get('import/link-brokerage-context'),
    upsertRelationships: files.get('import/upsert-relationships'),
    deleteDemoCredentials: files.get('import/delete-demo-credentials'),
    demoSupervisorStates: files.get('import/demo-supervisor-states'),
    deleteOrphanLicensees: files.get('import/delete-orphan-licensees'),
    deleteOrphanBrokerages: files.get('import/delete-orphan-brokerages'),
    refreshCounts: files.get('import/refresh-counts'),
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
  const tx = <T>(fn: (t: GraphTx) => Promise<T>) => graph.writeTransaction(fn);
  // Steps a refresh also runs, inside its own unit of work.
  const writeJurisdictions = async (t: GraphTx, rows: Row[]) => {
    await t.run(q.detachOtherSources, { rows: rows.map((r) => ({ state: r.state, source_id: r.source_id })) });
    await t.run(q.upsertJurisdictions, { rows });
  };
  /** Removes the states' demo credentials; gives the states of their supervisors, whose read models name them. */
  const removeDemo = async (t: GraphTx, states: string[]): Promise<string[]> => {
    const supervising = new Set<string>();
    for (const state of states) {
      for (const r of await t.run(q.demoSupervisorStates, { state })) supervising.add(r.state as string);
      await t.run(q.deleteDemoCredentials, { state });
    }
    await t.run(q.deleteOrphanLicensees);
    await t.run(q.deleteOrphanBrokerages);
    return [...supervising];
  };
  const writeCounts = (t: GraphTx, rows: { state: string; rows: number }[], now: string) => t.run(q.refreshCounts, { rows, now });
  const markRun = (t: GraphTx, id: string) => t.run(q.markRun, { id, at: clock.now().toISOString() });
  /** Runs a unit's writes between its events' `before` and `stage`. */
  const withEvents = async <R>(t: GraphTx, events: UnitEvents<R> | undefined, write: () => Promise<R>): Promise<R> => {
    await events?.before?.(t);
    const result = await write();
    if (events && (await events.stage(t, result))) await markRun(t, events.id);
    return result;
  };
  return {
    engine,
    /** When an import runs, unless told. */
    now: clock.now,
    writeJurisdictions,
    removeDemo,
    writeCounts,
    /**
     * Every write unit that adds, changes or removes credentials or relationships runs it last,
     * with the states of both ends of what it wrote.
     */
    writeReadModels: engine.writeReadModels,
    refreshReadModels: engine.refreshReadModels,
    readModelsMissing: engine.readModelsMissing,
    async jurisdictionCodes(): Promise<Set<string>> {
      return new Set((await graph.read(q.jurisdictionCodes)).map((r) => r.code as string));
    },
    upsertJurisdictions: (rows: Row[]) => tx((t) => writeJurisdictions(t, rows)),
    upsertCredentials: (rows: Row[], context: Row[], events?: UnitEvents<void>) =>
      tx((t) =>
        withEvents(t, events, async () => {
          await t.run(q.upsertCredentials, { rows: engine.stored(rows) });
          await engine.credentialsWritten(t, rows.map((r) => r.id as string));
          await t.run(q.detachOtherHolders, { rows: rows.map((r) => ({ id: r.id, licensee_id: r.licensee_id })) });
          await t.run(q.clearBrokerageContext, { ids: rows.map((r) => r.id) });
          if (context.length) await t.run(q.linkBrokerageContext, { rows: context });
        }),
      ),
    /** Returns the lines of the rows whose two credentials were on file. */
    upsertRelationships: (rows: Row[], events?: UnitEvents<number[]>) =>
      tx((t) => withEvents(t, events, async () => (await t.run(q.upsertRelationships, { rows })).map((r) => Number(r.line)))),
    deleteDemoCredentials: (states: string[]) => tx((t) => removeDemo(t, states)),
    /** Whether the graph holds no credential (outside a unit: a cheap check before one). */
    empty: async () => (await graph.read(q.anyCredential)).length === 0,
    bulk: {
      queries: bulkQueries,
      empty: async (t: GraphTx) => (await t.run(q.anyCredential)).length === 0,
      jurisdictionCodes: async (t: GraphTx) => new Set((await t.run(q.jurisdictionCodes)).map((r) => r.code as string)),
    },
    refreshCounts: (rows: { state: string; rows: number }[], now: string, events?: UnitEvents<void>) =>
      tx((t) => withEvents(t, events, async () => void (await writeCounts(t, rows, now)))),

    changes,
    markRun,
    /** Whether import run `id`'s unit landed (its mark is on file). */
    landedRun: async (id: string) => (await graph.read(q.runLanded, { id })).length > 0,
    /** A run's mark, once its events are committed, is needed no more. */
    forgetRun: (id: string) => tx((t) => t.run(q.forgetRun, { id })).then(() => undefined),
    /** Whether the state holds a credential that is not a demo record (else an import is its first load). */
    hasRealCredentials: async (state: string) => (await graph.read(q.stateHasRealCredentials, { state })).length > 0,
    /** Inside a unit: the JSON documents of credentials by id, as they are before its writes. */
    docs: (t: GraphTx, ids: string[]) => engine.docs(t, ids),
    /** Inside a unit: the end dates on file of the relationships of `rows` (one import batch) that exist. */
    relationshipEnds: (t: GraphTx, rows: Row[]) =>
      t.run(q.relationshipEnds, { rows: rows.map((r) => ({ supervisor_id: r.supervisor_id, affiliate_id: r.affiliate_id, relationship_type: r.relationship_type, effective_from: r.effective_from })) }),
    /** Inside a unit: per state with credentials, how many, their relationships, and a source. */
    loadedCounts: (t: GraphTx, states: string[]) => t.run(q.loadedCounts, { states }),
  };
}
export type ImportRepo = ReturnType<typeof createImportRepo>;
