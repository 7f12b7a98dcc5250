import type { GraphEngine, GraphTx, Row } from '../graph/graph-port.js';
import type { QueryFiles } from '../graph/query-files.js';
import type { EngineWrites } from '../graph/writes-port.js';
import type { Clock } from '../domain/clock.js';

/**
 * The writes of an import, one query file each; every call takes a non-empty batch. `engine`
 * holds what the engines store differently (graph/writes-port.ts).
 */
export function createImportRepo(graph: GraphEngine, files: QueryFiles, engine: EngineWrites, clock: Clock) {
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
    upsertCredentials: (rows: Row[], context: Row[]) =>
      tx(async (t) => {
        await t.run(q.upsertCredentials, { rows: engine.stored(rows) });
        await t.run(q.detachOtherHolders, { rows: rows.map((r) => ({ id: r.id, licensee_id: r.licensee_id })) });
        await t.run(q.clearBrokerageContext, { ids: rows.map((r) => r.id) });
        if (context.length) await t.run(q.linkBrokerageContext, { rows: context });
      }),
    /** Returns the lines of the rows whose two credentials were on file. */
    upsertRelationships: (rows: Row[]) =>
      tx(async (t) => (await t.run(q.upsertRelationships, { rows })).map((r) => Number(r.line))),
    deleteDemoCredentials: (states: string[]) => tx((t) => removeDemo(t, states)),
    /** Whether the graph holds no credential (outside a unit: a cheap check before one). */
    empty: async () => (await graph.read(q.anyCredential)).length === 0,
    bulk: {
      queries: bulkQueries,
      empty: async (t: GraphTx) => (await t.run(q.anyCredential)).length === 0,
      jurisdictionCodes: async (t: GraphTx) => new Set((await t.run(q.jurisdictionCodes)).map((r) => r.code as string)),
    },
    refreshCounts: (rows: { state: string; rows: number }[], now: string) => tx((t) => writeCounts(t, rows, now)),
  };
}
export type ImportRepo = ReturnType<typeof createImportRepo>;
