import { decodeDoc } from '../../domain/credential-doc.js';
import { CREDENTIAL_DATES, csvHeader } from '../bulk-file.js';
import type { BulkKind, BulkSink, GraphTx, Row } from '../graph-port.js';
import type { QueryFiles } from '../query-files.js';
import { idBatches, unwindBatches } from '../unwind.js';
import type { EngineWrites } from '../writes-port.js';
import type { LadybugEngine, LadybugTx } from './engine.js';
import { parsedReadModels, readModelStates, type StatePair, writeReadModelsFromExport } from './read-models.js';


/** A credential row as its node takes it: the licensee and brokerage fields are written as links. */
const node = ({ licensee_id: _l, licensee_key: _k, display_name: _d, context_brokerage: _c, ...fields }: Row) => fields;

/** Bulk loads run only in writeLarge's units, which have the bulk path. */
function largeUnit(t: GraphTx): LadybugTx {
  if (!('bulk' in t)) throw new Error('LadybugDB bulk writes run inside writeLarge');
  return t as LadybugTx;
}

/** The nulls the list reads coalesce to keep their lists aligned ('' and the 1900-01-01 date), back to null. */
const orNull = (v: string | undefined) => (v === '' || v === '1900-01-01' || v === undefined ? null : v);

/** LadybugDB's writes: bulk files for many rows, and the supervision read models every read starts from. */

export function ladybugWrites(graph: LadybugEngine, files: QueryFiles): EngineWrites {
  const q = (name: string) => files.get(name);
  const queries = {
    stateSupervisionPairs: q('import/supervision-state-pairs'),
    readModelsPresent: q('import/read-models-present'),
    anyRelationship: q('import/any-relationship'),
    docs: q('refresh/docs'),
    touchCredentials: q('engine/ladybug/touch-credentials'),
    createCredentials: q('engine/ladybug/create-credentials'),
    mergeLicensees: q('engine/ladybug/merge-licensees'),
    updateCredentials: q('engine/ladybug/update-credentials'),
    createLicensees: q('engine/ladybug/create-licensees'),
    linkJurisdiction: q('engine/ladybug/create-jurisdiction-links'),
    createHolds: q('engine/ladybug/create-holds'),
    createLinks: q('engine/ladybug/create-links'),
    markLeft: q('refresh/mark-left-source'),
    closeLinks: q('refresh/close-links'),
    deleteLinks: q('refresh/delete-links'),
    reopenLinks: q('refresh/reopen-links'),
    existing: q('refresh/existing-credentials'),
    links: q('refresh/open-links'),
  };
  const readModelQueries = {
    rows: q('engine/ladybug/read-model-rows'),
    copySupervisorLists: q('engine/ladybug/copy-supervisor-lists'),
    copyAffiliateLists: q('engine/ladybug/copy-affiliate-lists'),
    deleteSupervisorLists: q('import/delete-supervisor-lists'),
    deleteAffiliateLists: q('import/delete-affiliate-lists'),
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
  /** Each file COPYed into its table inside the unit. */
  const copySink = (t: LadybugTx): BulkSink => ({
    header: (_kind, columns) => csvHeader(columns),
    readModels: () => parsedReadModels(),
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

  // What each unit created, linked to its state and licensee by linkCreated.
  const createdIn = new WeakMap<GraphTx, Row[]>();

  return {
    stored: (rows) => rows,
    writeReadModels,
    // As one large unit: a state's lists may not fit one transaction's memory.
    refreshReadModels: (states) => graph.writeLarge((t) => writeReadModels(t, states)),
    readModelsMissing: async () => (await graph.read(queries.readModelsPresent)).length === 0 && (await graph.read(queries.anyRelationship)).length > 0,
    // The search index is rebuilt from the graph (search-index.ts).
    credentialsWritten: async () => undefined,
    docs: async (t, ids) => new Map((await idBatches(t, queries.docs, ids)).map((r) => [decodeDoc(r.doc as string).id as string, r.doc as string])),
    touchCredentials: (t, rows) => largeUnit(t).bulk(queries.touchCredentials, rows, ['snapshot_date']),
    async createCredentials(t, created, licensees, newLicensees) {
      await largeUnit(t).bulk(queries.createCredentials, created.map(node), CREDENTIAL_DATES);
      const held = createdIn.get(t) ?? [];
      createdIn.set(t, held);
      for (const r of created) held.push({ id: r.id, licensee_id: r.licensee_id });
      // One row per licensee: the parallel reader would MERGE a repeated key concurrently.
      if (licensees.length) await largeUnit(t).bulk(queries.mergeLicensees, licensees, []);
      // New licensees without a key lookup.
      if (newLicensees.length) await largeUnit(t).bulk(queries.createLicensees, newLicensees, []);
    },
    updateCredentials: (t, rows) => largeUnit(t).bulk(queries.updateCredentials, rows.map(node), CREDENTIAL_DATES),
    // One COPY into the state's node for all the unit created: one per batch cost more.
    async linkCreated(t, state) {
      const rows = createdIn.get(t) ?? [];
      createdIn.delete(t);
      if (!rows.length) return;
      await largeUnit(t).bulk(queries.linkJurisdiction, rows.map((r) => ({ from: r.id, to: state })), []);
      await largeUnit(t).bulk(queries.createHolds, rows.map((r) => ({ from: r.licensee_id, to: r.id })), []);
    },
    async createLinks(t, rows) {
      const copy = rows.map((r) => ({ from: r.supervisor_id, to: r.affiliate_id, affiliate_role: r.affiliate_role, relationship_type: r.relationship_type, effective_from: r.effective_from, effective_to: null, source: r.source }));
      await largeUnit(t).bulk(queries.createLinks, copy, ['effective_from', 'effective_to']);
    },
    markLeft: (t, rows) => unwindBatches(t, queries.markLeft, rows),
    closeLinks: (t, rows) => unwindBatches(t, queries.closeLinks, rows),
    deleteLinks: (t, rows) => unwindBatches(t, queries.deleteLinks, rows),
    reopenLinks: (t, rows) => unwindBatches(t, queries.reopenLinks, rows),
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
    bulkUnit: (fn) => graph.writeLarge((t) => fn(copySink(t), t)),
  };
}
