import type { GraphEngine, GraphTx, Row } from '../graph/graph-port.js';
import type { QueryFiles } from '../graph/query-files.js';

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
    deleteOrphanLicensees: files.get('import/delete-orphan-licensees'),
    deleteOrphanBrokerages: files.get('import/delete-orphan-brokerages'),
    refreshCounts: files.get('import/refresh-counts'),
    jurisdictionCodes: files.get('import/jurisdiction-codes'),
    anyCredential: files.get('import/any-credential'),
    supervisorStates: files.get('import/supervisor-states'),
    deleteSupervisorLists: files.get('import/delete-supervisor-lists'),
    deleteAffiliateLists: files.get('import/delete-affiliate-lists'),
    readModelsPresent: files.get('import/read-models-present'),
    anyRelationship: files.get('import/any-relationship'),
    supervisorList: files.get(`engine/${graph.name}/supervisor-list`),
    affiliateList: files.get(`engine/${graph.name}/affiliate-list`),
  };
  const bulkQueries = {
    copyCredentials: files.get('engine/ladybug/copy-credentials'),
    createLicensees: files.get('engine/ladybug/create-licensees'),
    jurisdictionLinks: files.get('engine/ladybug/create-jurisdiction-links'),
    holds: files.get('engine/ladybug/create-holds'),
    links: files.get('engine/ladybug/create-links'),
    linkBrokerageContext: files.get('import/link-brokerage-context'),
    upsertRelationships: files.get('import/upsert-relationships'),
  };
  const tx = <T>(fn: (t: GraphTx) => Promise<T>) => graph.writeTransaction(fn);
  // Steps a refresh also runs, inside its own unit of work.
  const writeJurisdictions = async (t: GraphTx, rows: Row[]) => {
    await t.run(q.detachOtherSources, { rows: rows.map((r) => ({ state: r.state, source_id: r.source_id })) });
    await t.run(q.upsertJurisdictions, { rows });
  };
  const removeDemo = async (t: GraphTx, states: string[]) => {
    for (const state of states) await t.run(q.deleteDemoCredentials, { state });
    await t.run(q.deleteOrphanLicensees);
    await t.run(q.deleteOrphanBrokerages);
  };
  const writeCounts = (t: GraphTx, rows: { state: string; rows: number }[], now: string) => t.run(q.refreshCounts, { rows, now });
  /**
   * Rebuilds the supervision read models of the given states: every write unit that adds, changes
   * or removes credentials or relationships runs it last, with the states of both ends of what it
   * wrote. A state's supervisor lists follow from the relationships into it alone; its affiliate
   * lists also hold the affiliates' names, so those of supervisors elsewhere whose affiliates are
   * in these states are rebuilt too. One state per statement: all of a national graph at once
   * needs more than a 1 GB buffer pool.
   */
  const writeReadModels = async (t: GraphTx, states: Iterable<string>) => {
    const list = [...new Set(states)].sort();
    if (!list.length) return;
    for (const state of list) {
      await t.run(q.deleteSupervisorLists, { state });
      await t.run(q.supervisorList, { state });
    }
    const elsewhere = (await t.run(q.supervisorStates, { states: list })).map((r) => r.state as string);
    for (const state of [...list, ...elsewhere]) {
      await t.run(q.deleteAffiliateLists, { state });
      await t.run(q.affiliateList, { state });
    }
  };
  return {
    writeJurisdictions,
    removeDemo,
    writeCounts,
    writeReadModels,
    /** As one large unit: a state's lists may not fit one transaction's memory on LadybugDB. */
    refreshReadModels: (states: Iterable<string>) => graph.writeLarge((t) => writeReadModels(t, states)),
    /** Whether the graph holds relationships without read models (written before they existed). */
    readModelsMissing: async () => (await graph.read(q.readModelsPresent)).length === 0 && (await graph.read(q.anyRelationship)).length > 0,
    async jurisdictionCodes(): Promise<Set<string>> {
      return new Set((await graph.read(q.jurisdictionCodes)).map((r) => r.code as string));
    },
    upsertJurisdictions: (rows: Row[]) => tx((t) => writeJurisdictions(t, rows)),
    upsertCredentials: (rows: Row[], context: Row[]) =>
      tx(async (t) => {
        await t.run(q.upsertCredentials, { rows });
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
