import type { GraphTx, Row } from '../graph-port.js';
import type { QueryFiles } from '../query-files.js';
import type { SearchRowsPacker } from '../search-source-port.js';
import { idBatches, rowsOf, unwindBatches } from '../unwind.js';
import type { GraphWrites } from '../writes-port.js';
import { sharedImportWrites } from '../import-writes.js';
import type { Neo4jEngine } from './engine.js';
import { neo4jInForce } from './in-force.js';
import { neo4jRosterMarks } from './roster-marks.js';
import { neo4jRowChanges } from './row-changes.js';
import { neo4jVersions, type VersionedTx } from './versions.js';

/** Relationships one supersede statement copies, about 5 MB of transaction memory a thousand. */
const SUPERSEDE_BUDGET = 10_000;

/** What a run wrote that the engine derives from as it ends. */
interface Run {
  /** A refresh's: versions published at its end. */
  refresh: boolean;
  /** Credentials whose SUPERVISES relationships changed: their in-force relationships follow. */
  changed: Set<string>;
  /**
   * A refresh's affiliates whose SUPERVISES were opened, ended, reopened or removed: their roster
   * marks and their supervisors' day counts follow (a superseded credential's copies keep theirs).
   */
  linked: Set<string>;
  /**
   * A refresh's: the in-force day it read as it began, and the credentials it created, whose links
   * are all its own and got their in-force copies as they were written (create-links.cypher).
   */
  day?: string;
  created: Set<string>;
  /** An import's states, whose in-force relationships follow at its end. */
  states: Set<string>;
  /** A refresh's values for the credentials it lists unchanged (touch-stamp.cypher), once written. */
  stamp?: Stamp;
}

/** What a touch gives a credential: its snapshot date, verification time and first note. */
interface Stamp {
  snapshot_date: unknown;
  last_verified: unknown;
  note: unknown;
}
const stampOf = (r: Row): Stamp => ({ snapshot_date: r.snapshot_date, last_verified: r.last_verified, note: (r.data_source_notes as unknown[] | null)?.[0] ?? null });

/**
 * Neo4j's writes: UNWIND batches; it keeps no JSON documents or read models, since it reads by
 * traversal, only the in-force relationships affiliates pages read (in-force.ts). A refresh
 * writes versions, step by step, that readers see once it is published (versions.ts). `pack`:
 * how a refresh packs its changed search rows (row-changes.ts).
 */
export function neo4jWrites(graph: Neo4jEngine, files: QueryFiles, pack?: SearchRowsPacker): GraphWrites & { settle(): Promise<void> } {
  const inForce = neo4jInForce(graph, files);
  const versions = neo4jVersions(graph, files);
  const rowChanges = neo4jRowChanges(graph, files, pack);
  const marks = neo4jRosterMarks(files);
  const shared = sharedImportWrites(files);
  const q = (name: string) => files.get(name);
  const r = (name: string) => q(`engine/neo4j/refresh/${name}`);
  const queries = {
    records: q('engine/neo4j/credentials'),
    upsertRelationships: q('engine/neo4j/upsert-relationships'),
    touchCredentials: r('touch-credentials'),
    touchListed: r('touch-listed'),
    touchStamp: r('touch-stamp'),
    createCredentials: r('create-credentials'),
    supersede: r('supersede'),
    supersedeDegrees: r('supersede-degrees'),
    overlay: r('overlay-credentials'),
    overlayLeft: r('overlay-left'),
    counts: r('counts'),
    updateCredentials: q('engine/neo4j/refresh/update-credentials'),
    markLeft: q('refresh/mark-left-source'),
    createLinks: r('create-links'),
    closeLinks: r('close-links'),
    deleteLinks: r('delete-links'),
    reopenLinks: r('reopen-links'),
    existing: r('existing-credentials'),
    links: r('open-links'),
    removeDemo: r('remove-demo'),
    imported: q('engine/neo4j/versions/imported'),
    stateAffiliates: q('engine/neo4j/in-force-affiliates'),
    dropPairs: q('engine/neo4j/drop-snapshot-pairs'),
  };
  const runs = new WeakMap<GraphTx, Run>();
  const newRun = (refresh: boolean): Run => ({ refresh, changed: new Set(), linked: new Set(), states: new Set(), created: new Set() });
  const runOf = (t: GraphTx) => {
    const run = runs.get(t);
    if (!run) throw new Error('Neo4j writes run inside importRun or refreshRun');
    return run;
  };
  const changed = (t: GraphTx, ids: Iterable<unknown>) => {
    const set = runOf(t).changed;
    for (const id of ids) set.add(id as string);
  };
  const linked = (t: GraphTx, ids: unknown[]) => {
    changed(t, ids);
    const set = runOf(t).linked;
    for (const id of ids) set.add(id as string);
  };
  /** In a refresh, what readers see only with the rest of it is written as it publishes (versions.ts); else now. */
  const atPublish = async (t: GraphTx, work: (t: GraphTx) => Promise<unknown>) => {
    if ('atPublish' in t) (t as VersionedTx).atPublish(work);
    else await work(t);
  };
  /**
   * Rows of `rows` whose new values `query` kept pending on the published node (overlay-*.cypher:
   * names, keys and links unchanged), and the rest, which need a new version.
   */
  const overlaid = async (t: GraphTx, query: string, rows: Row[], params: Row = {}) => {
    const taken = new Set<string>();
    for (let i = 0; i < rows.length; i += 2000) for (const r of await t.run(query, { ...params, rows: rows.slice(i, i + 2000) })) taken.add(r.id as string);
    return rows.filter((r) => !taken.has(r.id as string));
  };
  /**
   * New versions of credentials a refresh changes; their relationships' in-force copies follow.
   * A statement copies at most SUPERSEDE_BUDGET relationships (a brokerage with more goes alone):
   * a batch of FL's large brokerages had copied 300,000 in one and filled the transaction memory.
   */
  const supersede = async (t: GraphTx, ids: string[]) => {
    let group: string[] = [];
    let load = 0;
    const run = async () => {
      for (const row of await t.run(queries.supersede, { ids: group })) changed(t, [row.id, ...(row.affiliates as string[])]);
      group = [];
      load = 0;
    };
    for (const { id, degree } of await idBatches(t, queries.supersedeDegrees, ids)) {
      const cost = Number(degree) + 1;
      if (group.length && (load + cost > SUPERSEDE_BUDGET || group.length >= 2000)) await run();
      group.push(id as string);
      load += cost;
    }
    if (group.length) await run();
  };
  // An import writes in place: each batch moves its states' rows_version in its own transaction,
  // so search indexes read those states again as the rows they see change (search-version.cypher).
  const rowsMoved = async (t: GraphTx, states: Iterable<string>) => {
    const list = [...new Set(states)];
    if (list.length) await t.run(queries.imported, { states: list });
  };
  const links = (query: string, size?: number) => async (t: GraphTx, rows: Row[]) => {
    linked(t, rows.map((r) => r.affiliate_id));
    await unwindBatches(t, query, rows, size);
  };
  return {
    async importRun(fn) {
      const run = newRun(false);
      try {
        return await fn((work) => graph.writeTransaction((t) => (runs.set(t, run), work(t))));
      } finally {
        // A transaction per state: what one holds is bounded by a state's relationships.
        for (const state of run.states) {
          await marks.inPlace(graph, (await graph.read(queries.stateAffiliates, { state })).map((r) => r.id as string));
          await graph.writeTransaction((t) => inForce.sync(t, [state]));
        }
      }
    },
    refreshRun(state, fn, onWait) {
      return versions.unit(async (t) => {
        const run = newRun(true);
        runs.set(t, run);
        run.day = await inForce.day(t);
        const result = await fn(t);
        // Marks first: a relationship they version gets its in-force copy with the rest. The run's new
        // credentials are not matched again: their links' copies came with them (decision 0017).
        if (run.linked.size) await marks.inUnit(t, [...run.linked]);
        if (run.changed.size) await inForce.syncIds(t, [...run.changed], { day: run.day, ids: run.created });
        await rowChanges.keep(t, state);
        return result;
      }, onWait);
    },
    /** What refreshes leave to do once readers are done with what they replaced (old versions go); before the process ends. */
    settle: () => versions.settle(),
    writeJurisdictions: (t, rows) => atPublish(t, (u) => shared.writeJurisdictions(u, rows)),
    recordRun: (t, run) => atPublish(t, (u) => shared.recordRun(u, run)),
    moveHolders: (t, rows) => shared.moveHolders(t, rows),
    relinkBrokerages: (t, ids, context) => shared.relinkBrokerages(t, ids, context),
    async upsertCredentials(t, rows, context) {
      for (const r of rows) runOf(t).states.add(r.state as string);
      const ids = rows.map((r) => r.id as string);
      await shared.upsertCredentials(t, rows, context, async () => void (await idBatches(t, queries.dropPairs, ids)));
      await rowsMoved(t, rows.map((r) => r.state as string));
    },
    async upsertRelationships(t, rows) {
      for (const r of rows) runOf(t).states.add(r.supervisor_state as string).add(r.affiliate_state as string);
      return (await t.run(queries.upsertRelationships, { rows })).map((r) => Number(r.line));
    },
    async removeDemo(t, states) {
      const run = runOf(t);
      if (!run.refresh) {
        const { removed, supervising } = await shared.removeDemo(t, states);
        for (const s of [...states, ...supervising]) run.states.add(s);
        await rowsMoved(t, removed);
        return removed;
      }
      const removed: string[] = [];
      for (const state of states) {
        const rows = await t.run(queries.removeDemo, { state });
        for (const row of rows) linked(t, [row.id, ...(row.others as string[])]);
        if (rows.length) removed.push(state);
      }
      return removed;
    },
    async writeCounts(t, rows, now) {
      // A refresh's counts are those of the generation it publishes, written as it does.
      if (!runOf(t).refresh) return shared.writeCounts(t, rows, now);
      await atPublish(t, async (u) => {
        await u.run(queries.counts, { rows, now });
        await rowChanges.publish(u, rows.map((r) => r.state));
      });
    },
    /** Read from the credentials' fields, as the unit sees them. */
    records: async (t, ids) => new Map((await idBatches(t, queries.records, ids, { g: -1, published: -1 })).map((r) => [(r.record as Row).id as string, r.record as Row])),
    /**
     * A refresh marks the rows it lists unchanged with its generation, and writes their new values
     * once, on its stamp (touch-listed.cypher): a row whose values are not the stamp's (its notes' rest
     * is the row's own, unchanged with it) gets them as its own pending pair.
     */
    async touchCredentials(t, rows) {
      const run = runOf(t);
      const stamp = run.refresh && rows.length ? (run.stamp ?? stampOf(rows[0])) : undefined;
      const same = (r: Row) => stamp !== undefined && stamp.note !== null && Object.entries(stampOf(r)).every(([k, v]) => v === stamp[k as keyof Stamp]);
      const listed = rows.filter(same);
      const rest = rows.filter((r) => !same(r));
      if (listed.length && !run.stamp) {
        await t.run(queries.touchStamp, stamp as unknown as Row);
        run.stamp = stamp;
      }
      await idBatches(t, queries.touchListed, listed.map((r) => r.id));
      await unwindBatches(t, queries.touchCredentials, rest.map((r) => ({ id: r.id, snapshot_date: r.snapshot_date, last_verified: r.last_verified, data_source_notes: r.data_source_notes })));
    },
    async createCredentials(t, created) {
      // 4,000 a statement: fewer commits, within 256 MB of transaction memory (decision 0017). A
      // refresh is one state's.
      await unwindBatches(t, queries.createCredentials, created, 4000, { state: created[0].state });
      changed(t, created.map((r) => r.id));
      for (const r of created) runOf(t).created.add(r.id as string);
    },
    async updateCredentials(t, rows, relinked) {
      const rest = await overlaid(t, queries.overlay, rows, { relinked });
      if (!rest.length) return;
      await supersede(t, rest.map((r) => r.id as string));
      await unwindBatches(t, queries.updateCredentials, rest);
    },
    async markLeft(t, rows) {
      const rest = await overlaid(t, queries.overlayLeft, rows);
      if (!rest.length) return;
      await supersede(t, rest.map((r) => r.id as string));
      await unwindBatches(t, queries.markLeft, rest);
    },
    // A first load opens a link for nearly every row: 10,000 a statement pays fewer commits, within about 50 MB.
    createLinks: async (t, rows) => {
      linked(t, rows.map((r) => r.affiliate_id));
      await unwindBatches(t, queries.createLinks, rows, 10_000, { day: runOf(t).day ?? null });
    },
    closeLinks: links(queries.closeLinks),
    deleteLinks: links(queries.deleteLinks),
    reopenLinks: links(queries.reopenLinks),
    existing: (t, state) => rowsOf(t, queries.existing, { state }),
    links: (t, state, source) => rowsOf(t, queries.links, { state, source }),
  };
}
