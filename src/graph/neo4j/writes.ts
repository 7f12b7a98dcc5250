import { encodeDoc } from '../../domain/credential-doc.js';
import type { GraphTx, Row } from '../graph-port.js';
import type { QueryFiles } from '../query-files.js';
import { idBatches, rowsOf, unwindBatches } from '../unwind.js';
import type { EngineWrites } from '../writes-port.js';
import type { Neo4jEngine } from './engine.js';
import { neo4jInForce } from './in-force.js';
import { neo4jVersions } from './versions.js';

/** Relationships one supersede statement copies, about 5 MB of transaction memory a thousand. */
const SUPERSEDE_BUDGET = 10_000;

/**
 * Neo4j's writes: UNWIND batches; it keeps no JSON documents or read models, since it reads by
 * traversal, only the in-force relationships affiliates pages read (in-force.ts). A refresh
 * writes versions, step by step, that readers see once it is published (versions.ts).
 */
export function neo4jWrites(graph: Neo4jEngine, files: QueryFiles): EngineWrites {
  const inForce = neo4jInForce(graph, files);
  const versions = neo4jVersions(graph, files);
  const q = (name: string) => files.get(name);
  const r = (name: string) => q(`engine/neo4j/refresh/${name}`);
  const queries = {
    records: q('engine/neo4j/credentials'),
    touchCredentials: r('touch-credentials'),
    createCredentials: r('create-credentials'),
    supersede: r('supersede'),
    supersedeDegrees: r('supersede-degrees'),
    overlay: r('overlay-credentials'),
    overlayLeft: r('overlay-left'),
    counts: r('counts'),
    updateCredentials: q('refresh/update-credentials'),
    markLeft: q('refresh/mark-left-source'),
    createLinks: r('create-links'),
    closeLinks: r('close-links'),
    deleteLinks: r('delete-links'),
    reopenLinks: r('reopen-links'),
    existing: r('existing-credentials'),
    links: r('open-links'),
    removeDemo: r('remove-demo'),
    nameGrams: q('engine/neo4j/name-grams'),
    postingsPending: q('engine/neo4j/versions/postings-pending'),
    dropPairs: q('engine/neo4j/drop-snapshot-pairs'),
  };
  // The credentials whose SUPERVISES relationships in a refresh unit changed: its in-force
  // relationships follow for them alone (writeReadModels).
  const changedIn = new WeakMap<GraphTx, Set<string>>();
  const changed = (t: GraphTx, ids: Iterable<unknown>) => {
    let set = changedIn.get(t);
    if (!set) changedIn.set(t, (set = new Set()));
    for (const id of ids) set.add(id as string);
  };
  const nameGrams = async (t: GraphTx, rows: Row[]) => void (await idBatches(t, queries.nameGrams, rows.map((r) => r.id)));
  // A unit's credentials get their name postings once it is published (versions.buildPostings):
  // their states read names from the full-text index until then.
  const pendingIn = new WeakMap<GraphTx, Set<string>>();
  const postingsLater = async (t: GraphTx, rows: Row[]) => {
    const states = pendingIn.get(t) ?? new Set<string>();
    pendingIn.set(t, states);
    const named = [...new Set(rows.map((r) => r.state as string | undefined).filter((s) => s !== undefined && !states.has(s)))] as string[];
    const unnamed = rows.filter((r) => r.state === undefined).map((r) => r.id);
    if (!named.length && !unnamed.length) return;
    for (const s of named) states.add(s);
    await t.run(queries.postingsPending, { states: named, ids: unnamed });
  };
  const stored = (rows: Row[]) => rows.map((r) => ({ ...r, doc: null }));
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
  const links = (query: string, size?: number) => async (t: GraphTx, rows: Row[]) => {
    changed(t, rows.map((r) => r.affiliate_id));
    await unwindBatches(t, query, rows, size);
  };
  return {
    stored,
    async writeReadModels(t, states) {
      const ids = changedIn.get(t);
      if (!ids) return inForce.sync(t, states);
      await inForce.syncIds(t, [...ids]);
      changedIn.delete(t);
    },
    // A unit per state: what one holds is bounded by a state's changes.
    async refreshReadModels(states) {
      for (const state of states) await graph.writeTransaction((t) => inForce.sync(t, [state]));
    },
    readModelsMissing: async () => false,
    /** Made from the credentials' fields. */
    docs: async (t, ids) => new Map((await idBatches(t, queries.records, ids, { g: -1, published: -1 })).map((r) => [(r.record as Row).id as string, encodeDoc(r.record as Row)])),
    touchCredentials: (t, rows) => unwindBatches(t, queries.touchCredentials, rows.map((r) => ({ id: r.id, snapshot_date: r.snapshot_date, last_verified: r.last_verified, data_source_notes: r.data_source_notes }))),
    async credentialsWritten(t, ids) {
      await nameGrams(t, ids.map((id) => ({ id })));
      await idBatches(t, queries.dropPairs, ids);
    },
    async createCredentials(t, created) {
      await postingsLater(t, created);
      // 4,000 a statement: about 4,000 rows/s, where 2,000 gave 2,900 (commits cost), within 256 MB.
      // A refresh is one state's.
      if (created.length) await unwindBatches(t, queries.createCredentials, stored(created), 4000, { state: created[0].state });
      changed(t, created.map((r) => r.id));
    },
    async updateCredentials(t, rows, relinked) {
      // Pending statuses too keep the state's name searches on the full-text path (search-grams.cypher).
      await postingsLater(t, rows);
      const rest = await overlaid(t, queries.overlay, rows, { relinked });
      if (!rest.length) return;
      await supersede(t, rest.map((r) => r.id as string));
      await unwindBatches(t, queries.updateCredentials, stored(rest));
    },
    async markLeft(t, rows) {
      await postingsLater(t, rows);
      const rest = await overlaid(t, queries.overlayLeft, rows);
      if (!rest.length) return;
      await supersede(t, rest.map((r) => r.id as string));
      await unwindBatches(t, queries.markLeft, stored(rest));
    },
    writeCounts: async (t, rows, now) => void (await t.run(queries.counts, { rows, now })),
    // Linked as they are created.
    linkCreated: async () => undefined,
    // A first load opens a link for nearly every row: 10,000 a statement pays fewer commits, within about 50 MB.
    createLinks: links(queries.createLinks, 10_000),
    closeLinks: links(queries.closeLinks),
    deleteLinks: links(queries.deleteLinks),
    reopenLinks: links(queries.reopenLinks),
    existing: (t, state) => rowsOf(t, queries.existing, { state }),
    links: (t, state, source) => rowsOf(t, queries.links, { state, source }),
    async refreshUnit(fn, onWait) {
      const out = await versions.unit(fn, onWait);
      await versions.buildPostings();
      return out;
    },
    settle: () => versions.settle(),
    async removeDemo(t, state) {
      await postingsLater(t, [{ state }]);
      for (const row of await t.run(queries.removeDemo, { state })) changed(t, [row.id, ...(row.others as string[])]);
      return [];
    },
  };
}
