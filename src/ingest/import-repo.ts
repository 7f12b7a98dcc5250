import type { GraphEngine, GraphTx, Row } from '../graph/graph-port.js';
import type { QueryFiles } from '../graph/query-files.js';
import { type ReadModelQueries, readModelStates, type StatePair, writeReadModelsFromExport } from './read-models.js';

/** The writes of an import, one query file each; every call takes a non-empty batch. */
export function createImportRepo(graph: GraphEngine, files: QueryFiles) {
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
    stateSupervisionPairs: files.get('import/supervision-state-pairs'),
    deleteSupervisorLists: files.get('import/delete-supervisor-lists'),
    deleteAffiliateLists: files.get('import/delete-affiliate-lists'),
    readModelsPresent: files.get('import/read-models-present'),
    anyRelationship: files.get('import/any-relationship'),
  };
  // Only LadybugDB keeps supervision read models (built from an export, read-models.ts): Neo4j
  // reads the relationships by traversal.
  const readModels = graph.name === 'ladybug';
  /** Rows as the engine stores them: Neo4j keeps no JSON read model (doc) either. */
  const stored = (rows: Row[]) => (readModels ? rows : rows.map((r) => ({ ...r, doc: null })));
  const readModelQueries: ReadModelQueries = {
    rows: files.get('engine/ladybug/read-model-rows'),
    copySupervisorLists: files.get('engine/ladybug/copy-supervisor-lists'),
    copyAffiliateLists: files.get('engine/ladybug/copy-affiliate-lists'),
    deleteSupervisorLists: q.deleteSupervisorLists,
    deleteAffiliateLists: q.deleteAffiliateLists,
  };
  const bulkQueries = {
    copyCredentials: files.get('engine/ladybug/copy-credentials'),
    createLicensees: files.get('engine/ladybug/create-licensees'),
    jurisdictionLinks: files.get('engine/ladybug/create-jurisdiction-links'),
    holds: files.get('engine/ladybug/create-holds'),
    links: files.get('engine/ladybug/create-links'),
    linkBrokerageContext: files.get('import/link-brokerage-context'),
    upsertRelationships: files.get('import/upsert-relationships'),
    writeCounts: files.get('import/write-counts'),
    copySupervisorLists: readModelQueries.copySupervisorLists,
    copyAffiliateLists: readModelQueries.copyAffiliateLists,
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
  /**
   * Rebuilds the supervision read models of the given states (see readModelStates): every write
   * unit that adds, changes or removes credentials or relationships runs it last, with the states
   * of both ends of what it wrote. Nothing on Neo4j.
   */
  const writeReadModels = async (t: GraphTx, states: Iterable<string>) => {
    const list = [...states];
    if (!readModels || !list.length) return;
    if (!t.exportFile || !t.bulkFile || !t.checkpoint) throw new Error(`${graph.name} cannot build read models`);
    const pairs = (await t.run(q.stateSupervisionPairs)) as unknown as StatePair[];
    await writeReadModelsFromExport({ run: t.run, exportFile: t.exportFile, bulkFile: t.bulkFile, checkpoint: t.checkpoint }, readModelQueries, readModelStates(list, pairs), pairs);
  };
  return {
    stored,
    writeJurisdictions,
    removeDemo,
    writeCounts,
    writeReadModels,
    /** As one large unit (a state's lists may not fit one transaction's memory). */
    refreshReadModels: async (states: Iterable<string>) => {
      if (readModels) await graph.writeLarge((t) => writeReadModels(t, states));
    },
    /** Whether the graph holds relationships without the read models its engine keeps (written before they existed). */
    readModelsMissing: async () => readModels && (await graph.read(q.readModelsPresent)).length === 0 && (await graph.read(q.anyRelationship)).length > 0,
    async jurisdictionCodes(): Promise<Set<string>> {
      return new Set((await graph.read(q.jurisdictionCodes)).map((r) => r.code as string));
    },
    upsertJurisdictions: (rows: Row[]) => tx((t) => writeJurisdictions(t, rows)),
    upsertCredentials: (rows: Row[], context: Row[]) =>
      tx(async (t) => {
        await t.run(q.upsertCredentials, { rows: stored(rows) });
        await t.run(q.detachOtherHolders, { rows: rows.map((r) => ({ id: r.id, licensee_id: r.licensee_id })) });
        await t.run(q.clearBrokerageContext, { ids: rows.map((r) => r.id) });
        if (context.length) await t.run(q.linkBrokerageContext, { rows: context });
      }),
    /** Returns the lines of the rows whose two credentials were on file. */
    upsertRelationships: (rows: Row[]) =>
      tx(async (t) => (await t.run(q.upsertRelationships, { rows })).map((r) => Number(r.line))),
    deleteDemoCredentials: (states: string[]) => tx((t) => removeDemo(t, states)),
    /** One all-or-nothing unit for the bulk path (see GraphEngine.writeLarge). */
    runLarge: <T>(fn: (t: GraphTx) => Promise<T>) => graph.writeLarge(fn),
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
