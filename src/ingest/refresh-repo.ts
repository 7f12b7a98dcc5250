import type { GraphEngine, GraphTx, Row } from '../graph/graph-port.js';
import type { QueryFiles } from '../graph/query-files.js';
import { idBatches, unwindBatches as batched } from '../graph/unwind.js';
import type { ChangeLog } from './change-log.js';
import type { ImportRepo } from './import-repo.js';
import type { RefreshLeases } from './refresh-lease.js';

export interface CredentialWrites {
  created: Row[];
  /** Licensees on file that created rows hold, one row each (id, entity_type, display_name, licensee_key). */
  licensees: Row[];
  /** Licensees new to the graph that created rows hold, one row each (as `licensees`). */
  newLicensees: Row[];
  updated: Row[];
  moved: Row[];
  context: Row[];
  touched: Row[];
}

/**
 * The reads and writes of a refresh run, all inside the run's unit (engine.refreshUnit, else one
 * transaction); `changes` records
 * the run's change events (absent: none are kept), `leases` keep other processes from refreshing
 * the same state at once (absent: only this process is kept from it).
 */
export function createRefreshRepo(graph: GraphEngine, files: QueryFiles, imports: ImportRepo, changes?: ChangeLog, leases?: RefreshLeases) {
  const q = (name: string) => files.get(name);
  const queries = {
    detachOtherHolders: q('import/detach-other-holders'),
    moveHolders: q('refresh/move-holders'),
    clearBrokerageContext: q('import/clear-brokerage-context'),
    linkBrokerageContext: q('refresh/link-brokerage-context'),
    known: q('refresh/known-credentials'),
    recordRun: q('refresh/record-run'),
    lastSnapshot: q('refresh/last-snapshot'),
    lastRun: q('refresh/last-run'),
    numbers: q('refresh/credential-numbers'),
  };
  const { engine } = imports;
  /** What a unit that commits step by step shows at once when it publishes (else: now). */
  const atPublish = (t: GraphTx, work: (t: GraphTx) => Promise<unknown>) => (t.atPublish ? (t.atPublish(work), Promise.resolve()) : work(t));
  return {
    /** When a refresh runs, unless told. */
    now: imports.now,
    changes,
    leases,
    /** Whether the source's last landed run is `runId` (runs of a source land one at a time). */
    async landedRun(source: string, runId: string): Promise<boolean> {
      const [row] = await graph.read(queries.lastRun, { source });
      const run = row?.run ? (JSON.parse(row.run as string) as { run_id?: string }) : undefined;
      return run?.run_id === runId;
    },
    /** The run's unit: one large unit, or steps that a publish shows at once (`onWait`: another run holds the engine). */
    /** Before the process ends: what its runs left to do once readers are done with what they replaced. */
    settle: async () => engine.settle?.(),
    run: <T>(fn: (t: GraphTx) => Promise<T>, onWait?: (holder: string) => void) => (engine.refreshUnit ? engine.refreshUnit(fn, onWait) : graph.writeLarge(fn)),
    async lastSnapshot(t: GraphTx, source: string): Promise<string | null> {
      const [row] = await t.run(queries.lastSnapshot, { source });
      return (row?.last_snapshot_date as string | null) ?? null;
    },
    configureSource: (t: GraphTx, row: Row) => atPublish(t, (u) => imports.writeJurisdictions(u, [row])),
    removeDemo: (t: GraphTx, state: string) => (engine.removeDemo ? engine.removeDemo(t, state) : imports.removeDemo(t, [state])),
    /** The state's credentials as a refresh compares them (id, licensee_id, source, row_hash, snapshot_date, left_source_on). */
    existing: (t: GraphTx, state: string): AsyncIterable<Row> => engine.existing(t, state),
    /** The source's open relationships into the state (supervisor_id, affiliate_id, relationship_type, affiliate_role, effective_from, effective_to). */
    links: (t: GraphTx, state: string, source: string): AsyncIterable<Row> => engine.links(t, state, source),
    /** The JSON documents of credentials by id. */
    docs: (t: GraphTx, ids: string[]) => engine.docs(t, ids),
    /** Licence numbers of credentials by id (those on file). */
    numbers: async (t: GraphTx, ids: string[]) => new Map((await idBatches(t, queries.numbers, ids)).map((r) => [r.id as string, r.license_number as string])),
    known: async (t: GraphTx, ids: string[]) => new Map((await idBatches(t, queries.known, ids)).map((r) => [r.id as string, (r.left_source_on as string | null) ?? null])),
    /**
     * Writes credentials: `created` are new to the graph (linked to their state and licensee by
     * linkCreated at the latest), `updated` exist (`moved` among them hold a new licensee); business-name brokerage
     * links are replaced for both. `touched` are listed again unchanged: only when they were seen
     * is written.
     */
    async writeCredentials(t: GraphTx, { created, licensees, newLicensees, updated, moved, context, touched }: CredentialWrites) {
      if (touched.length) await engine.touchCredentials(t, touched.map((r) => ({ id: r.id, snapshot_date: r.snapshot_date, last_verified: r.last_verified, data_source_notes: r.data_source_notes, doc: r.doc })));
      if (created.length) await engine.createCredentials(t, created, licensees, newLicensees);
      if (updated.length) {
        await engine.updateCredentials(t, updated, context.map((c) => c.id as string));
        await idBatches(t, queries.clearBrokerageContext, updated.map((r) => r.id));
      }
      if (moved.length) {
        await batched(t, queries.detachOtherHolders, moved.map((r) => ({ id: r.id, licensee_id: r.licensee_id })));
        await batched(t, queries.moveHolders, moved);
      }
      await batched(t, queries.linkBrokerageContext, context);
    },
    /** Once the run's credentials are written: the links to their state and licensee an engine left till then. */
    linkCreated: (t: GraphTx, state: string) => engine.linkCreated(t, state),
    /** Reopens ended links that come back with the same start date. */
    reopenLinks: (t: GraphTx, rows: Row[]) => engine.reopenLinks(t, rows),
    /** Opens new links; both ends are on file (the refresh checks supervisors, affiliates are its rows). */
    createLinks: (t: GraphTx, rows: Row[]) => engine.createLinks(t, rows),
    closeLinks: (t: GraphTx, rows: Row[]) => engine.closeLinks(t, rows),
    deleteLinks: (t: GraphTx, rows: Row[]) => engine.deleteLinks(t, rows),
    markLeft: (t: GraphTx, rows: Row[]) => engine.markLeft(t, rows),
    /**
     * `changed`: credentials or relationships were written, so the state's read models are
     * rebuilt; `alsoStates`: states whose read models named removed credentials, rebuilt with them.
     */
    async finish(t: GraphTx, state: string, source: string, snapshot: string, run: object, rows: number, now: string, changed: boolean, alsoStates: string[] = []) {
      if (changed || alsoStates.length) await imports.writeReadModels(t, [state, ...alsoStates]);
      await atPublish(t, async (u) => {
        await (engine.writeCounts ?? imports.writeCounts)(u, [{ state, rows }], now);
        await u.run(queries.recordRun, { source, snapshot, run: JSON.stringify(run), now, rows });
      });
    },
  };
}
export type RefreshRepo = ReturnType<typeof createRefreshRepo>;
