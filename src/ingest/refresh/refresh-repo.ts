import type { Clock } from '../../domain/clock.js';
import type { GraphEngine, GraphTx, Row } from '../../graph/graph-port.js';
import type { QueryFiles } from '../../graph/query-files.js';
import { idBatches } from '../../graph/unwind.js';
import type { GraphWrites } from '../../graph/writes-port.js';
import type { ChangeLog } from '../../modules/changes/change-log.js';
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
 * What a refresh reads and writes beyond the write port's calls, which it makes itself (`writes`:
 * its run's unit, GraphWrites.refreshRun, and the facts it writes); `changes` records the run's
 * change events (absent: none are kept), `leases` keep other processes from refreshing the same
 * state at once (absent: only this process is kept from it).
 */
export function createRefreshRepo(graph: GraphEngine, files: QueryFiles, writes: GraphWrites, clock: Clock, changes?: ChangeLog, leases?: RefreshLeases) {
  const q = (name: string) => files.get(name);
  const queries = {
    known: q('refresh/known-credentials'),
    lastSnapshot: q('refresh/last-snapshot'),
    lastRun: q('refresh/last-run'),
    numbers: q('refresh/credential-numbers'),
  };
  return {
    writes,
    /** When a refresh runs, unless told. */
    now: clock.now,
    changes,
    leases,
    /** Whether the source's last landed run is `runId` (runs of a source land one at a time). */
    async landedRun(source: string, runId: string): Promise<boolean> {
      const [row] = await graph.read(queries.lastRun, { source });
      const run = row?.run ? (JSON.parse(row.run as string) as { run_id?: string }) : undefined;
      return run?.run_id === runId;
    },
    async lastSnapshot(t: GraphTx, source: string): Promise<string | null> {
      const [row] = await t.run(queries.lastSnapshot, { source });
      return (row?.last_snapshot_date as string | null) ?? null;
    },
    /** Licence numbers of credentials by id (those on file). */
    numbers: async (t: GraphTx, ids: string[]) => new Map((await idBatches(t, queries.numbers, ids)).map((r) => [r.id as string, r.license_number as string])),
    known: async (t: GraphTx, ids: string[]) => new Map((await idBatches(t, queries.known, ids)).map((r) => [r.id as string, (r.left_source_on as string | null) ?? null])),
    /**
     * Writes credentials: `created` are new to the graph, `updated` exist (`moved` among them hold a new licensee); business-name brokerage
     * links are replaced for both. `touched` are listed again unchanged: only when they were seen
     * is written.
     */
    async writeCredentials(t: GraphTx, { created, licensees, newLicensees, updated, moved, context, touched }: CredentialWrites) {
      // Each engine takes the fields it keeps of them.
      if (touched.length) await writes.touchCredentials(t, touched);
      if (created.length) await writes.createCredentials(t, created, licensees, newLicensees);
      if (updated.length) await writes.updateCredentials(t, updated, context.map((c) => c.id as string));
      if (moved.length) await writes.moveHolders(t, moved);
      if (updated.length || context.length) await writes.relinkBrokerages(t, updated.map((r) => r.id as string), context);
    },
    /** The state's counts and the source's run, shown with the rest of the run. */
    async finish(t: GraphTx, state: string, source: string, snapshot: string, run: object, rows: number, now: string) {
      await writes.writeCounts(t, [{ state, rows }], now);
      await writes.recordRun(t, { source, snapshot, run: JSON.stringify(run), now, rows });
    },
  };
}
export type RefreshRepo = ReturnType<typeof createRefreshRepo>;
