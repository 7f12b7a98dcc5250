import { decodeDoc, encodeDoc } from '../domain/credential-doc.js';
import type { GraphEngine, GraphTx, Row } from '../graph/graph-port.js';
import type { QueryFiles } from '../graph/query-files.js';
import { CREDENTIAL_DATES } from './bulk-chunks.js';
import type { ImportRepo } from './import-repo.js';

/** The coalesced nulls of the list reads ('' and the 1900-01-01 date) back to null. */
const orNull = (v: string | undefined) => (v === '' || v === '1900-01-01' || v === undefined ? null : v);

export interface CredentialWrites {
  created: Row[];
  /** Licensees on file that created rows hold, one row each (id, entity_type, display_name, licensee_key). */
  licensees: Row[];
  updated: Row[];
  moved: Row[];
  context: Row[];
  touched: Row[];
}

/** The reads and writes of a refresh run, all inside the run's one transaction. */
export function createRefreshRepo(graph: GraphEngine, files: QueryFiles, imports: ImportRepo) {
  const q = (name: string) => files.get(name);
  const queries = {
    createCredentials: q('refresh/create-credentials'),
    bulkCreateCredentials: q('engine/ladybug/create-credentials'),
    linkCreated: q('refresh/link-created-credentials'),
    bulkLinkJurisdiction: q('engine/ladybug/create-jurisdiction-links'),
    bulkMergeLicensees: q('engine/ladybug/merge-licensees'),
    bulkCreateLicensees: q('engine/ladybug/create-licensees'),
    bulkCreateHolds: q('engine/ladybug/create-holds'),
    updateCredentials: q('refresh/update-credentials'),
    touchCredentials: q('refresh/touch-credentials'),
    bulkTouchCredentials: q('engine/ladybug/touch-credentials'),
    bulkUpdateCredentials: q('engine/ladybug/update-credentials'),
    detachOtherHolders: q('import/detach-other-holders'),
    moveHolders: q('refresh/move-holders'),
    clearBrokerageContext: q('import/clear-brokerage-context'),
    linkBrokerageContext: q('refresh/link-brokerage-context'),
    reopenLinks: q('refresh/reopen-links'),
    createLinks: q('refresh/create-links'),
    bulkCreateLinks: q('engine/ladybug/create-links'),
    existing: q('refresh/existing-credentials'),
    docs: q('refresh/docs'),
    records: q('engine/neo4j/credentials'),
    openLinks: q('refresh/open-links'),
    known: q('refresh/known-credentials'),
    closeLinks: q('refresh/close-links'),
    deleteLinks: q('refresh/delete-links'),
    markLeft: q('refresh/mark-left-source'),
    recordRun: q('refresh/record-run'),
    lastSnapshot: q('refresh/last-snapshot'),
  };
  const batched = async (t: GraphTx, query: string, rows: Row[], size = 2000, params: Row = {}) => {
    for (let i = 0; i < rows.length; i += size) await t.run(query, { ...params, rows: rows.slice(i, i + size) });
  };
  return {
    run: <T>(fn: (t: GraphTx) => Promise<T>) => graph.writeLarge(fn),
    async lastSnapshot(t: GraphTx, source: string): Promise<string | null> {
      const [row] = await t.run(queries.lastSnapshot, { source });
      return (row?.last_snapshot_date as string | null) ?? null;
    },
    configureSource: (t: GraphTx, row: Row) => imports.writeJurisdictions(t, [row]),
    removeDemo: (t: GraphTx, state: string) => imports.removeDemo(t, [state]),
    async existing(t: GraphTx, state: string): Promise<Row[]> {
      const [l] = await t.run(queries.existing, { state });
      const ids = (l?.ids as string[] | undefined) ?? [];
      return ids.map((id, i) => ({
        id,
        licensee_id: orNull((l.licensee_ids as string[])[i]),
        source: (l.sources as string[])[i],
        row_hash: orNull((l.row_hashes as string[])[i]),
        snapshot_date: orNull((l.snapshot_dates as string[])[i]),
        left_source_on: orNull((l.left_dates as string[])[i]),
      }));
    },
    async links(t: GraphTx, state: string, source: string): Promise<Row[]> {
      const [l] = await t.run(queries.openLinks, { state, source });
      const ids = (l?.supervisor_ids as string[] | undefined) ?? [];
      return ids.map((supervisor_id, i) => ({
        supervisor_id,
        affiliate_id: (l.affiliate_ids as string[])[i],
        relationship_type: (l.relationship_types as string[])[i],
        affiliate_role: orNull((l.affiliate_roles as string[])[i]),
        effective_from: (l.effective_froms as string[])[i],
        effective_to: orNull((l.effective_tos as string[])[i]),
      }));
    },
    /** The JSON read models of credentials by id; on Neo4j, which keeps none, made from their fields. */
    async docs(t: GraphTx, ids: string[]): Promise<Map<string, string>> {
      const out = new Map<string, string>();
      for (let i = 0; i < ids.length; i += 2000) {
        if (graph.name === 'neo4j') {
          for (const r of await t.run(queries.records, { ids: ids.slice(i, i + 2000) })) out.set((r.record as Row).id as string, encodeDoc(r.record as Row));
        } else {
          for (const r of await t.run(queries.docs, { ids: ids.slice(i, i + 2000) })) out.set(decodeDoc(r.doc as string).id as string, r.doc as string);
        }
      }
      return out;
    },
    async known(t: GraphTx, ids: string[]) {
      const out = new Map<string, string | null>();
      for (let i = 0; i < ids.length; i += 2000) {
        for (const r of await t.run(queries.known, { ids: ids.slice(i, i + 2000) })) out.set(r.id as string, (r.left_source_on as string | null) ?? null);
      }
      return out;
    },
    /**
     * Writes credentials: `created` are new to the graph (linkCreated links them once all are
     * written), `updated` exist (`moved` among them hold a new licensee); business-name brokerage
     * links are replaced for both. `touched` are listed again unchanged: only when they were seen
     * is written.
     */
    async writeCredentials(t: GraphTx, { created, licensees, updated, moved, context, touched }: CredentialWrites) {
      if (touched.length) {
        const rows = imports.stored(touched.map((r) => ({ id: r.id, snapshot_date: r.snapshot_date, last_verified: r.last_verified, data_source_notes: r.data_source_notes, doc: r.doc })));
        if (t.bulk) await t.bulk(queries.bulkTouchCredentials, rows, ['snapshot_date']);
        else await batched(t, queries.touchCredentials, rows);
      }
      if (created.length) {
        if (t.bulk) {
          await t.bulk(queries.bulkCreateCredentials, created.map(({ licensee_id: _l, licensee_key: _k, display_name: _d, context_brokerage: _c, ...node }) => node), CREDENTIAL_DATES);
          // One row per licensee: the parallel reader would MERGE a repeated key concurrently.
          if (licensees.length) await t.bulk(queries.bulkMergeLicensees, licensees, []);
        } else await t.run(queries.createCredentials, { rows: imports.stored(created) });
      }
      if (updated.length) {
        if (t.bulk) await t.bulk(queries.bulkUpdateCredentials, updated.map(({ licensee_id: _l, licensee_key: _k, display_name: _d, context_brokerage: _c, ...node }) => node), CREDENTIAL_DATES);
        else await batched(t, queries.updateCredentials, imports.stored(updated));
        const ids = updated.map((r) => r.id);
        for (let i = 0; i < ids.length; i += 2000) await t.run(queries.clearBrokerageContext, { ids: ids.slice(i, i + 2000) });
      }
      if (moved.length) {
        await batched(t, queries.detachOtherHolders, moved.map((r) => ({ id: r.id, licensee_id: r.licensee_id })));
        await batched(t, queries.moveHolders, moved);
      }
      await batched(t, queries.linkBrokerageContext, context);
    },
    /**
     * Links the credentials the run created (id, licensee_id) to the state and their licensee;
     * `newLicensees` (as CredentialWrites.licensees) are not on file yet: engines with a bulk path
     * create them here, without a key lookup (Neo4j's create-credentials merged them).
     */
    async linkCreated(t: GraphTx, state: string, rows: Row[], newLicensees: Row[]) {
      if (!t.bulk) return batched(t, queries.linkCreated, rows, 2000, { state });
      if (newLicensees.length) await t.bulk(queries.bulkCreateLicensees, newLicensees, []);
      await t.bulk(queries.bulkLinkJurisdiction, rows.map((r) => ({ from: r.id, to: state })), []);
      await t.bulk(queries.bulkCreateHolds, rows.map((r) => ({ from: r.licensee_id, to: r.id })), []);
    },
    /** Reopens ended links that come back with the same start date. */
    reopenLinks: (t: GraphTx, rows: Row[]) => batched(t, queries.reopenLinks, rows),
    /** Opens new links; both ends are on file (the refresh checks supervisors, affiliates are its rows). */
    async createLinks(t: GraphTx, rows: Row[]) {
      if (!t.bulk) return batched(t, queries.createLinks, rows);
      const copy = rows.map((r) => ({ from: r.supervisor_id, to: r.affiliate_id, affiliate_role: r.affiliate_role, relationship_type: r.relationship_type, effective_from: r.effective_from, effective_to: null, source: r.source }));
      await t.bulk(queries.bulkCreateLinks, copy, ['effective_from', 'effective_to']);
    },
    closeLinks: (t: GraphTx, rows: Row[]) => batched(t, queries.closeLinks, rows),
    deleteLinks: (t: GraphTx, rows: Row[]) => batched(t, queries.deleteLinks, rows),
    markLeft: (t: GraphTx, rows: Row[]) => batched(t, queries.markLeft, imports.stored(rows)),
    /**
     * `changed`: credentials or relationships were written, so the state's read models are
     * rebuilt; `alsoStates`: states whose read models named removed credentials, rebuilt with them.
     */
    async finish(t: GraphTx, state: string, source: string, snapshot: string, run: object, rows: number, now: string, changed: boolean, alsoStates: string[] = []) {
      await imports.writeCounts(t, [{ state, rows }], now);
      if (changed || alsoStates.length) await imports.writeReadModels(t, [state, ...alsoStates]);
      await t.run(queries.recordRun, { source, snapshot, run: JSON.stringify(run), now, rows });
    },
  };
}
export type RefreshRepo = ReturnType<typeof createRefreshRepo>;
