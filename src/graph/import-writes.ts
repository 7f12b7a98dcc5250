import type { GraphTx, Row } from './graph-port.js';
import type { QueryFiles } from './query-files.js';
import { idBatches, unwindBatches } from './unwind.js';
import type { SourceRun } from './writes-port.js';

/** The import and refresh writes both engines run as they are (cypher/import/, cypher/refresh/), for their GraphWrites. */
export function sharedImportWrites(files: QueryFiles) {
  const q = (name: string) => files.get(`import/${name}`);
  const refresh = {
    moveHolders: files.get('refresh/move-holders'),
    linkBrokerageContext: files.get('refresh/link-brokerage-context'),
    recordRun: files.get('refresh/record-run'),
  };
  const queries = {
    upsertJurisdictions: q('upsert-jurisdictions'),
    detachOtherSources: q('detach-other-sources'),
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
    async writeJurisdictions(t: GraphTx, rows: Row[]) {
      await t.run(queries.detachOtherSources, { rows: rows.map((r) => ({ state: r.state, source_id: r.source_id })) });
      await t.run(queries.upsertJurisdictions, { rows });
    },
    async moveHolders(t: GraphTx, rows: Row[]) {
      await unwindBatches(t, queries.detachOtherHolders, rows.map((r) => ({ id: r.id, licensee_id: r.licensee_id })));
      await unwindBatches(t, refresh.moveHolders, rows);
    },
    async relinkBrokerages(t: GraphTx, ids: string[], context: Row[]) {
      if (ids.length) await idBatches(t, queries.clearBrokerageContext, ids);
      if (context.length) await unwindBatches(t, refresh.linkBrokerageContext, context);
    },
    recordRun: async (t: GraphTx, run: SourceRun) => void (await t.run(refresh.recordRun, { ...run })),
    /** The credentials as they are; `written` runs on them before their holders and brokerage links are set. */
    async upsertCredentials(t: GraphTx, rows: Row[], context: Row[], written?: () => Promise<void>) {
      await t.run(queries.upsertCredentials, { rows });
      await written?.();
      await t.run(queries.detachOtherHolders, { rows: rows.map((r) => ({ id: r.id, licensee_id: r.licensee_id })) });
      await t.run(queries.clearBrokerageContext, { ids: rows.map((r) => r.id) });
      if (context.length) await t.run(queries.linkBrokerageContext, { rows: context });
    },
    upsertRelationships: async (t: GraphTx, rows: Row[]) => (await t.run(queries.upsertRelationships, { rows })).map((r) => Number(r.line)),
    /** Removes the states' demo credentials; gives the states that had some, and the states of their supervisors elsewhere. */
    async removeDemo(t: GraphTx, states: string[]): Promise<{ removed: string[]; supervising: string[] }> {
      const supervising = new Set<string>();
      const removed: string[] = [];
      for (const state of states) {
        for (const r of await t.run(queries.demoSupervisorStates, { state })) supervising.add(r.state as string);
        const [row] = await t.run(queries.deleteDemoCredentials, { state });
        if (Number(row?.removed ?? 0) > 0) removed.push(state);
      }
      await t.run(queries.deleteOrphanLicensees);
      await t.run(queries.deleteOrphanBrokerages);
      return { removed, supervising: [...supervising] };
    },
    writeCounts: async (t: GraphTx, rows: { state: string; rows: number }[], now: string) => void (await t.run(queries.refreshCounts, { rows, now })),
  };
}
