import type { GraphTx, Row } from './graph-port.js';
import type { QueryFiles } from './query-files.js';

/** The import writes both engines run as they are (cypher/import/), for their GraphWrites. */
export function sharedImportWrites(files: QueryFiles) {
  const q = (name: string) => files.get(`import/${name}`);
  const queries = {
    upsertCredentials: q('upsert-credentials'),
    detachOtherHolders: q('detach-other-holders'),
    clearBrokerageContext: q('clear-brokerage-context'),
    linkBrokerageContext: q('link-brokerage-context'),
    upsertRelationships: q('upsert-relationships'),
    demoSupervisorStates: q('demo-supervisor-states'),
    deleteDemoCredentials: q('delete-demo-credentials'),
    deleteOrphanLicensees: q('delete-orphan-licensees'),
    deleteOrphanBrokerages: q('delete-orphan-brokerages'),
    refreshCounts: q('refresh-counts'),
  };
  return {
    /** The credentials as they are; `written` runs on them before their holders and brokerage links are set. */
    async upsertCredentials(t: GraphTx, rows: Row[], context: Row[], written?: () => Promise<void>) {
      await t.run(queries.upsertCredentials, { rows });
      await written?.();
      await t.run(queries.detachOtherHolders, { rows: rows.map((r) => ({ id: r.id, licensee_id: r.licensee_id })) });
      await t.run(queries.clearBrokerageContext, { ids: rows.map((r) => r.id) });
      if (context.length) await t.run(queries.linkBrokerageContext, { rows: context });
    },
    upsertRelationships: async (t: GraphTx, rows: Row[]) => (await t.run(queries.upsertRelationships, { rows })).map((r) => Number(r.line)),
    /** Removes the states' demo credentials; gives the states of their supervisors elsewhere. */
    async removeDemo(t: GraphTx, states: string[]): Promise<string[]> {
      const supervising = new Set<string>();
      for (const state of states) {
        for (const r of await t.run(queries.demoSupervisorStates, { state })) supervising.add(r.state as string);
        await t.run(queries.deleteDemoCredentials, { state });
      }
      await t.run(queries.deleteOrphanLicensees);
      await t.run(queries.deleteOrphanBrokerages);
      return [...supervising];
    },
    writeCounts: async (t: GraphTx, rows: { state: string; rows: number }[], now: string) => void (await t.run(queries.refreshCounts, { rows, now })),
  };
}
