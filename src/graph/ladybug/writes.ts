import { sharedImportWrites } from '../import-writes.js';
import { CREDENTIAL_DATES, csvHeader } from '../bulk-file.js';
import { decodeDoc, encodeDoc } from '../credential-doc.js';
import type { BulkKind, BulkLoader, BulkSink, GraphTx, Row } from '../graph-port.js';
import type { QueryFiles } from '../query-files.js';
import { idBatches, unwindBatches } from '../unwind.js';
import type { GraphWrites } from '../writes-port.js';
import type { LadybugEngine, LadybugTx } from './engine.js';
import { LIST_FIELDS } from './list-fields.js';
import { parsedReadModels, readModelStates, type StatePair, writeReadModelsFromExport } from './read-models.js';

/** A credential row as its node takes it, with its document: the licensee and brokerage fields are written as links. */
const node = (r: Row) => {
  const { licensee_id: _l, licensee_key: _k, display_name: _d, context_brokerage: _c, ...fields } = r;
  return Object.assign(fields, { doc: encodeDoc(r) });
};

/** Bulk loads run only in writeLarge's units, which have the bulk path. */
function largeUnit(t: GraphTx): LadybugTx {
  if (!('bulk' in t)) throw new Error('LadybugDB bulk writes run inside writeLarge');
  return t as LadybugTx;
}

/** The nulls the list reads coalesce to keep their lists aligned ('' and the 1900-01-01 date), back to null. */
const orNull = (v: string | undefined) => (v === '' || v === '1900-01-01' || v === undefined ? null : v);

/** What a run wrote that the engine derives from at its end. */
interface Run {
  /** States whose supervision lists are rebuilt. */
  states: Set<string>;
  /** Credentials created, linked to their state and licensee by one COPY (linkCreated). */
  created: Row[];
  /** The state of a refresh. */
  state?: string;
}

/**
 * LadybugDB's writes: bulk files for many rows, and what every read starts from, kept here: the
 * supervision read models of the states a run touched, rebuilt as it ends (read-models.ts), and
 * each credential's document (credential-doc.ts), made from the records it writes.
 */
export function ladybugWrites(graph: LadybugEngine, files: QueryFiles): GraphWrites & { bulk: BulkLoader; buildMissingReadModels(): Promise<boolean> } {
  const q = (name: string) => files.get(name);
  const shared = sharedImportWrites(files);
  const queries = {
    stateSupervisionPairs: q('engine/ladybug/supervision-state-pairs'),
    readModelsPresent: q('engine/ladybug/read-models-present'),
    anyRelationship: q('engine/ladybug/any-relationship'),
    jurisdictionCodes: q('import/jurisdiction-codes'),
    docs: q('engine/ladybug/refresh/docs'),
    touchCredentials: q('engine/ladybug/touch-credentials'),
    createCredentials: q('engine/ladybug/create-credentials'),
    mergeLicensees: q('engine/ladybug/merge-licensees'),
    updateCredentials: q('engine/ladybug/update-credentials'),
    createLicensees: q('engine/ladybug/create-licensees'),
    linkJurisdiction: q('engine/ladybug/create-jurisdiction-links'),
    createHolds: q('engine/ladybug/create-holds'),
    createLinks: q('engine/ladybug/create-links'),
    markLeft: q('refresh/mark-left-source'),
    closeLinks: q('engine/ladybug/refresh/close-links'),
    deleteLinks: q('engine/ladybug/refresh/delete-links'),
    reopenLinks: q('engine/ladybug/refresh/reopen-links'),
    existing: q('engine/ladybug/refresh/existing-credentials'),
    links: q('engine/ladybug/refresh/open-links'),
  };
  const readModelQueries = {
    rows: q('engine/ladybug/read-model-rows'),
    copySupervisorLists: q('engine/ladybug/copy-supervisor-lists'),
    copyAffiliateLists: q('engine/ladybug/copy-affiliate-lists'),
    deleteSupervisorLists: q('engine/ladybug/delete-supervisor-lists'),
    deleteAffiliateLists: q('engine/ladybug/delete-affiliate-lists'),
  };
  const copies: Record<BulkKind, string> = {
    credentials: q('engine/ladybug/copy-credentials'),
    licensees: queries.createLicensees,
    jurisdictionLinks: queries.linkJurisdiction,
    holds: queries.createHolds,
    links: queries.createLinks,
    supervisorLists: readModelQueries.copySupervisorLists,
    affiliateLists: readModelQueries.copyAffiliateLists,
  };
  /** Each file COPYed into its table inside the unit; the read models built from the parsed rows. */
  const copySink = (t: LadybugTx): BulkSink => ({
    header: (_kind, columns) => csvHeader(columns),
    parsed: () => parsedReadModels(),
    listFields: LIST_FIELDS,
    async load(kind, file) {
      // What was written before stays in the buffer pool until a checkpoint: without one the
      // deleted rows left no room in a 1 GB pool for a COPY of every supervisor list.
      if (kind === 'supervisorLists' || kind === 'affiliateLists') await t.checkpoint();
      await t.bulkFile(copies[kind], file);
    },
    run: (query, params) => t.run(query, params),
  });

  const writeReadModels = async (t: GraphTx, states: Iterable<string>) => {
    const list = [...states];
    if (!list.length) return;
    const pairs = (await t.run(queries.stateSupervisionPairs)) as unknown as StatePair[];
    await writeReadModelsFromExport(largeUnit(t), readModelQueries, readModelStates(list, pairs), pairs);
  };

  const runs = new WeakMap<GraphTx, Run>();
  const runOf = (t: GraphTx) => {
    const run = runs.get(t);
    if (!run) throw new Error('LadybugDB writes run inside importRun or refreshRun');
    return run;
  };
  /** A refresh's write of `rows` (none: nothing changes) that changes what its state's lists hold. */
  const changed = (t: GraphTx, rows: unknown[]) => {
    const run = runOf(t);
    if (run.state && rows.length) run.states.add(run.state);
  };
  // One COPY into the state's node for all the run created, once its credentials are written (the
  // first write or read of its links, or its counts): one per batch cost more.
  const linkCreated = async (t: GraphTx) => {
    const run = runOf(t);
    const rows = run.created.splice(0);
    if (!rows.length || !run.state) return;
    await largeUnit(t).bulk(queries.linkJurisdiction, rows.map((r) => ({ from: r.id, to: run.state })), []);
    await largeUnit(t).bulk(queries.createHolds, rows.map((r) => ({ from: r.licensee_id, to: r.id })), []);
  };
  const unwound = (query: string) => async (t: GraphTx, rows: Row[]) => {
    await linkCreated(t);
    changed(t, rows);
    await unwindBatches(t, query, rows);
  };

  return {
    async importRun(fn) {
      const run: Run = { states: new Set(), created: [] };
      try {
        return await fn((work) => graph.writeTransaction((t) => (runs.set(t, run), work(t))));
      } finally {
        // As one large unit: a state's lists may not fit one transaction's memory.
        if (run.states.size) await graph.writeLarge((t) => writeReadModels(t, run.states));
      }
    },
    refreshRun: (state, fn) =>
      graph.writeLarge(async (t) => {
        const run: Run = { states: new Set(), created: [], state };
        runs.set(t, run);
        const out = await fn(t);
        await linkCreated(t);
        await writeReadModels(t, run.states);
        return out;
      }),
    writeJurisdictions: (t, rows) => shared.writeJurisdictions(t, rows),
    recordRun: (t, run) => shared.recordRun(t, run),
    moveHolders: (t, rows) => shared.moveHolders(t, rows),
    relinkBrokerages: (t, ids, context) => shared.relinkBrokerages(t, ids, context),
    async upsertCredentials(t, rows, context) {
      for (const r of rows) runOf(t).states.add(r.state as string);
      await shared.upsertCredentials(t, rows.map((r) => ({ ...r, doc: encodeDoc(r) })), context);
    },
    async upsertRelationships(t, rows) {
      for (const r of rows) runOf(t).states.add(r.supervisor_state as string).add(r.affiliate_state as string);
      return shared.upsertRelationships(t, rows);
    },
    async removeDemo(t, states) {
      const run = runOf(t);
      // Supervisors elsewhere of the records removed: their states' affiliate lists name them.
      const { removed, supervising } = await shared.removeDemo(t, states);
      for (const s of [...(run.state ? [] : states), ...supervising]) run.states.add(s);
      changed(t, supervising);
      return removed;
    },
    async writeCounts(t, rows, now) {
      // The counts go through IN_JURISDICTION: the run's new credentials are linked first.
      await linkCreated(t);
      await shared.writeCounts(t, rows, now);
    },
    records: async (t, ids) => new Map((await idBatches(t, queries.docs, ids)).map((r) => decodeDoc(r.doc as string)).map((d) => [d.id as string, d])),
    touchCredentials: (t, rows) => largeUnit(t).bulk(queries.touchCredentials, rows.map((r) => ({ id: r.id, snapshot_date: r.snapshot_date, last_verified: r.last_verified, data_source_notes: r.data_source_notes, doc: encodeDoc(r) })), ['snapshot_date']),
    async createCredentials(t, created, licensees, newLicensees) {
      changed(t, created);
      await largeUnit(t).bulk(queries.createCredentials, created.map(node), CREDENTIAL_DATES);
      const held = runOf(t).created;
      for (const r of created) held.push({ id: r.id, licensee_id: r.licensee_id });
      // One row per licensee: the parallel reader would MERGE a repeated key concurrently.
      if (licensees.length) await largeUnit(t).bulk(queries.mergeLicensees, licensees, []);
      // New licensees without a key lookup.
      if (newLicensees.length) await largeUnit(t).bulk(queries.createLicensees, newLicensees, []);
    },
    async updateCredentials(t, rows) {
      changed(t, rows);
      await largeUnit(t).bulk(queries.updateCredentials, rows.map(node), CREDENTIAL_DATES);
    },
    markLeft: (t, rows) =>
      unwound(queries.markLeft)(t, rows.map((r) => ({ id: r.id, status: r.status, data_source_notes: r.data_source_notes, left_source_on: r.left_source_on, doc: encodeDoc(r) }))),
    async createLinks(t, rows) {
      await linkCreated(t);
      changed(t, rows);
      if (!rows.length) return;
      const copy = rows.map((r) => ({ from: r.supervisor_id, to: r.affiliate_id, affiliate_role: r.affiliate_role, relationship_type: r.relationship_type, effective_from: r.effective_from, effective_to: null, source: r.source }));
      await largeUnit(t).bulk(queries.createLinks, copy, ['effective_from', 'effective_to']);
    },
    closeLinks: unwound(queries.closeLinks),
    deleteLinks: unwound(queries.deleteLinks),
    reopenLinks: unwound(queries.reopenLinks),
    // One row of parallel lists (the binding's fastest form), taken one credential at a time.
    async *existing(t, state) {
      const l = (await t.run(queries.existing, { state }))[0] ?? {};
      const ids = (l.ids as string[] | undefined) ?? [];
      for (const [i, id] of ids.entries()) yield {
        id,
        licensee_id: orNull((l.licensee_ids as string[])[i]),
        source: (l.sources as string[])[i],
        row_hash: orNull((l.row_hashes as string[])[i]),
        snapshot_date: orNull((l.snapshot_dates as string[])[i]),
        left_source_on: orNull((l.left_dates as string[])[i]),
      };
    },
    async *links(t, state, source) {
      await linkCreated(t);
      const l = (await t.run(queries.links, { state, source }))[0] ?? {};
      const ids = (l.supervisor_ids as string[] | undefined) ?? [];
      for (const [i, supervisor_id] of ids.entries()) yield {
        supervisor_id,
        affiliate_id: (l.affiliate_ids as string[])[i],
        relationship_type: (l.relationship_types as string[])[i],
        affiliate_role: orNull((l.affiliate_roles as string[])[i]),
        effective_from: (l.effective_froms as string[])[i],
        effective_to: orNull((l.effective_tos as string[])[i]),
      };
    },
    bulk: (fn) => graph.writeLarge((t) => fn(copySink(t), t)),
    /** A graph written before the read models existed gets them; true when it had to. */
    async buildMissingReadModels() {
      if ((await graph.read(queries.readModelsPresent)).length || !(await graph.read(queries.anyRelationship)).length) return false;
      const states = (await graph.read(queries.jurisdictionCodes)).map((r) => r.code as string);
      await graph.writeLarge((t) => writeReadModels(t, states));
      return true;
    },
  };
}
