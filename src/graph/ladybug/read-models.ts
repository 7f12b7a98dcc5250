// The supervision read models on LadybugDB: SupervisorList and AffiliateList rows built here from
// an export of the relationships and COPYed into their tables, where aggregating them in Cypher
// did not fit a 2 GB buffer pool at 3M credentials (docs/decisions/0006).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bySupervisionEntry, type AffiliateRecord, type SupervisionEntry } from '../../domain/credential.js';
import { ENTRY_BREAKS, FIELD_SEPARATOR, bulkFields, csvHeader, csvRow, readBulkRecords, splitBulkFile } from '../bulk-file.js';
import type { BulkFile, BulkKind, BulkSink, ParsedRows } from '../graph-port.js';
import type { LadybugTx } from './engine.js';

/** Relationships exported and held at once: about 250 bytes of entries each. */
const GROUP_RELATIONSHIPS = 750_000;

export interface StatePair {
  supervisor_state: string;
  affiliate_state: string;
  relationships: number;
}

/**
 * The states whose supervisor lists (`supervised`) and affiliate lists (`supervising`) an import
 * of `states` rebuilds: supervisor lists follow from the relationships into a state alone;
 * affiliate lists also hold the affiliates' names, so those of supervisors elsewhere whose
 * affiliates are in `states` are rebuilt too.
 */
export function readModelStates(states: Iterable<string>, pairs: StatePair[]) {
  const supervised = new Set(states);
  const supervising = new Set(supervised);
  for (const p of pairs) if (supervised.has(p.affiliate_state)) supervising.add(p.supervisor_state);
  return { supervised: [...supervised].sort(), supervising: [...supervising].sort() };
}

/**
 * States in groups whose relationships to export stay under `limit` (a state larger than that is
 * a group of its own): each group is one export, its lists held in memory until written.
 */
export function stateGroups(supervised: string[], supervising: string[], pairs: StatePair[], limit = GROUP_RELATIONSHIPS) {
  const size = new Map<string, number>();
  const add = (state: string, n: number) => size.set(state, (size.get(state) ?? 0) + n);
  const into = new Set(supervised);
  const from = new Set(supervising);
  for (const p of pairs) {
    if (into.has(p.affiliate_state)) add(p.affiliate_state, p.relationships);
    if (from.has(p.supervisor_state)) add(p.supervisor_state, p.relationships);
  }
  const groups: string[][] = [];
  let group: string[] = [];
  let rows = 0;
  for (const state of [...new Set([...supervised, ...supervising])].sort()) {
    const n = size.get(state) ?? 0;
    if (group.length && rows + n > limit) {
      groups.push(group);
      group = [];
      rows = 0;
    }
    group.push(state);
    rows += n;
  }
  if (group.length) groups.push(group);
  return groups;
}

interface Lists {
  state: string;
  entries: string[];
}

const push = (lists: Map<string, Lists>, id: string, state: string, entry: string) => {
  const list = lists.get(id);
  if (list) list.entries.push(entry);
  else lists.set(id, { state, entries: [entry] });
};

const COLUMNS = ['id', 'state', 'entries'];

// The entry layouts, written here and read by reads.ts: tab-separated fields, entries joined by
// line breaks in a list's `entries`.

type EntryField = string | null | undefined;
/** A supervisor list entry (one per relationship into a credential); a null field is empty. */
const supervisorEntry = (supervisorId: EntryField, role: EntryField, type: EntryField, start: EntryField, end: EntryField) =>
  [supervisorId, role, type, start, end].join('\t');
/** An affiliate list entry (one per relationship out of a credential): its text sorts in the domain's affiliates order (AffiliateRecord). */
const affiliateEntry = (
  sortKey: EntryField, affiliateId: EntryField, type: EntryField, start: EntryField, role: EntryField, end: EntryField,
  number: EntryField, licenseType: EntryField, fullName: EntryField, businessName: EntryField,
) => [sortKey, affiliateId, type, start, role, end, number, licenseType, fullName, businessName].join('\t');

/** A list's entries, from its `entries` text. */
export const listEntries = (value: unknown): string[] => (value == null ? [] : String(value).split('\n'));

/** A supervisor list's entries as relationships, in the domain's order (the list's text order is the same: it is kept sorted). */
export const supervisionOf = (value: unknown): SupervisionEntry[] =>
  listEntries(value)
    .map((line) => {
      const [supervisor_id, affiliate_role, relationship_type, effective_from, effective_to] = line.split('\t');
      return { supervisor_id, affiliate_role, relationship_type, effective_from, effective_to: effective_to || null };
    })
    .sort(bySupervisionEntry);

/** Positions of an affiliate entry's fields that a page filters on. */
const AFFILIATE_FIELD = { id: 1, type: 2, from: 3, role: 4, to: 5, number: 6 } as const;

/** The n-th tab-separated field of an entry line; empty when the line has fewer. */
function fieldAt(line: string, n: number): string {
  let start = 0;
  for (let i = 0; i < n; i++) {
    const tab = line.indexOf('\t', start);
    if (tab === -1) return '';
    start = tab + 1;
  }
  const end = line.indexOf('\t', start);
  return end === -1 ? line.slice(start) : line.slice(start, end);
}

/** One field of an affiliate entry, without splitting the rest (a page filters whole lists). */
export const affiliateField = (line: string, field: keyof typeof AFFILIATE_FIELD) => fieldAt(line, AFFILIATE_FIELD[field]);

/** An affiliate entry as the relationship and affiliate it names. */
export function affiliateOf(line: string): AffiliateRecord {
  const [, id, type, from, role, , number, licenseType, fullName, businessName] = line.split('\t');
  return { id, license_number: number, full_name: fullName || null, business_name: businessName || null, license_type: licenseType || null, affiliate_role: role, relationship_type: type, effective_from: from };
}

/** Bytes of lists a refresh COPYs at once: a COPY holds what it loads in the engine's memory. */
const PART_BYTES = 64 * 2 ** 20;

/**
 * A bulk file (id, state, entries) that lists are appended to, then COPYed in. Entries go in
 * sorted: a list reads the same whichever way it was built (from an export, or from the rows a
 * bulk import parsed), and the affiliates reader's sort is a pass over sorted entries. Past
 * `partBytes` the lists go on in a new part, COPYed on its own: FL's lists inside the national
 * store (multi-megabyte ones for its largest brokers) left no room in a 1 GB pool for one COPY.
 */
function listFile(file: string, header = csvHeader(COLUMNS), partBytes = Number.POSITIVE_INFINITY) {
  const parts = [file];
  let bytes = 0;
  fs.writeFileSync(file, `${header}\n`);
  let rows = 0;
  return {
    append(lists: Map<string, Lists>) {
      let fd = fs.openSync(parts.at(-1)!, 'a');
      try {
        let buffer: string[] = [];
        const flush = () => {
          fs.writeSync(fd, buffer.join(''));
          buffer = [];
        };
        for (const [id, { state, entries }] of lists) {
          entries.sort();
          const line = `${csvRow(COLUMNS, { id, state, entries: entries.join('\n') })}\n`;
          if (bytes > 0 && bytes + line.length > partBytes) {
            flush();
            fs.closeSync(fd);
            // The engine reads a file by its extension.
            parts.push(file.replace(/(\.csv)?$/, `-part${parts.length}.csv`));
            fs.writeFileSync(parts.at(-1)!, `${header}\n`);
            fd = fs.openSync(parts.at(-1)!, 'a');
            bytes = 0;
          }
          buffer.push(line);
          bytes += line.length;
          if (buffer.length >= 10_000) flush();
        }
        flush();
        rows += lists.size;
      } finally {
        fs.closeSync(fd);
      }
    },
    /** The first part as a bulk file; entries joined by line breaks make it one to read serially. */
    file: (part = 0): BulkFile => ({ path: parts[part], columns: COLUMNS, dates: [], lineBreaks: true }),
    get rows() {
      return rows;
    },
    async copy(t: Pick<LadybugTx, 'bulkFile' | 'checkpoint'>, query: string) {
      if (!rows) return;
      for (const [i, part] of parts.entries()) {
        // What was written before stays in the buffer pool until a checkpoint: without one the
        // deleted rows left no room in a 1 GB pool for a COPY of every supervisor list.
        await t.checkpoint();
        await t.bulkFile(query, this.file(i));
        if (i > 0) fs.rmSync(part, { force: true });
      }
    },
  };
}

export interface ReadModelQueries {
  rows: string;
  copySupervisorLists: string;
  copyAffiliateLists: string;
  deleteSupervisorLists: string;
  deleteAffiliateLists: string;
}

/**
 * Rebuilds the supervisor lists of `supervised` states and the affiliate lists of `supervising`
 * ones, a group of states at a time (see readModelStates, stateGroups), from one export of their
 * relationships.
 */
export async function writeReadModelsFromExport(
  t: Pick<LadybugTx, 'run' | 'bulkFile' | 'exportFile' | 'checkpoint'>,
  q: ReadModelQueries,
  { supervised, supervising }: { supervised: string[]; supervising: string[] },
  pairs: StatePair[],
  groupRelationships = GROUP_RELATIONSHIPS,
  partBytes = PART_BYTES,
) {
  // A state per statement: each commits on its own, so no one statement holds all of a national
  // graph's deleted lists (0006).
  for (const state of supervised) await t.run(q.deleteSupervisorLists, { state });
  for (const state of supervising) await t.run(q.deleteAffiliateLists, { state });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-read-models-'));
  try {
    const groups = stateGroups(supervised, supervising, pairs, groupRelationships).map((states) => ({
      into: new Set(states.filter((s) => supervised.includes(s))),
      from: new Set(states.filter((s) => supervising.includes(s))),
    }));
    // The unit's writes so far (a first load's every row) hold the buffer pool until a checkpoint.
    await t.checkpoint();
    // One export, split by group: an export per group scanned every relationship each time.
    const exported = await t.exportFile(q.rows, { supervisor_list_states: supervised, affiliate_list_states: supervising });
    const parts = groups.length === 1 ? [exported] : await splitExport(exported, groups, dir);
    const supervisorFile = listFile(path.join(dir, 'supervisor-lists.csv'), undefined, partBytes);
    // A group's affiliate lists are COPYed while the next group is built.
    let copying: Promise<void> = Promise.resolve();
    try {
      for (const [i, group] of groups.entries()) {
        const { supervisorLists, affiliateLists } = await buildGroup(parts[i], group.into, group.from);
        supervisorFile.append(supervisorLists);
        // Affiliate lists go in a group at a time: one COPY of every list (MBs each for the largest
        // brokers) over a table with deleted rows left no room in a 1 GB buffer pool.
        const file = path.join(dir, `affiliate-lists-${i}.csv`);
        const affiliateFile = listFile(file, undefined, partBytes);
        affiliateFile.append(affiliateLists);
        await copying;
        copying = affiliateFile.copy(t, q.copyAffiliateLists).finally(() => fs.rmSync(file, { force: true }));
        copying.catch(() => undefined);
      }
    } finally {
      await copying.catch(() => undefined);
    }
    await copying;
    // Supervisor lists, read by key for every credential read, in one COPY: a table filled by
    // several reads far slower by key (0006).
    await supervisorFile.copy(t, q.copySupervisorLists);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The export's records split into a file per group: a record goes to the group of its
 * affiliate's state (its supervisor list) and to that of its supervisor's (its affiliate list).
 * The first four fields are ids and state codes, never quoted.
 */
async function splitExport(exported: string, groups: { into: Set<string>; from: Set<string> }[], dir: string): Promise<(string | undefined)[]> {
  const into = new Map<string, number>();
  const from = new Map<string, number>();
  groups.forEach((g, i) => (g.into.forEach((s) => into.set(s, i)), g.from.forEach((s) => from.set(s, i))));
  try {
    const parts = await splitBulkFile(exported, dir, (record) => {
      const [, sstate, , astate] = record.split(FIELD_SEPARATOR, 4);
      const a = into.get(astate);
      const s = from.get(sstate);
      if (a === undefined) return s === undefined ? [] : [s];
      return s === undefined || s === a ? [a] : [a, s];
    });
    return groups.map((_, i) => parts.get(i));
  } finally {
    fs.rmSync(exported, { force: true });
  }
}

/** The lists of one group of states, from its part of the export (removed once read; none: no relationships). */
async function buildGroup(file: string | undefined, into: Set<string>, from: Set<string>) {
  const supervisorLists = new Map<string, Lists>();
  const affiliateLists = new Map<string, Lists>();
  if (!file) return { supervisorLists, affiliateLists };
  try {
    for await (const records of readBulkRecords(file)) {
      for (const record of records) {
        const [sid, sstate, aid, astate, role, type, start, end, sortKey, number, licenseType, fullName, businessName] = bulkFields(record.replace(ENTRY_BREAKS, ' '));
        if (into.has(astate!)) push(supervisorLists, aid!, astate!, supervisorEntry(sid, role, type, start, end));
        if (from.has(sstate!)) push(affiliateLists, sid!, sstate!, affiliateEntry(sortKey, aid, type, start, role, end, number, licenseType, fullName, businessName));
      }
    }
  } finally {
    fs.rmSync(file, { force: true });
  }
  return { supervisorLists, affiliateLists };
}

/** Positions of `keys` (each below n) grouped by key: those of key k are order[start[k]..start[k + 1]). */
function groupByKey(keys: number[], n: number) {
  const start = new Int32Array(n + 1);
  for (const k of keys) start[k + 1] += 1;
  for (let k = 0; k < n; k++) start[k + 1] += start[k];
  const next = start.slice(0, n);
  const order = new Int32Array(keys.length);
  keys.forEach((k, i) => (order[next[k]++] = i));
  return { start, order };
}

/** Lists written to a list file this many credentials at a time. */
const WRITE_BATCH = 20_000;

/**
 * The read models of a first import into an empty graph (the canonical import's bulk path),
 * built from the rows it parses instead of from an export of the loaded graph, in one COPY a table
 * (0006).
 * Entries are those writeReadModelsFromExport builds (the bulk-import test compares them).
 */
export function parsedReadModels(): ParsedRows {
  const ids: string[] = [];
  /** Per credential: credentialListFields. */
  const fields: string[] = [];
  const supervisors: number[] = [];
  const affiliates: number[] = [];
  /** Per relationship: relationshipListFields. */
  const edges: string[] = [];
  const stateOf = (c: number) => fields[c].slice(0, fields[c].indexOf('\t'));
  const write = (file: string, format: Parameters<typeof listFile>[1], key: number[], entry: (i: number) => string) => {
    const out = listFile(file, format);
    const { start, order } = groupByKey(key, ids.length);
    let batch = new Map<string, Lists>();
    for (let c = 0; c < ids.length; c++) {
      if (start[c] < start[c + 1]) {
        const entries: string[] = [];
        for (let j = start[c]; j < start[c + 1]; j++) entries.push(entry(order[j]));
        batch.set(ids[c], { state: stateOf(c), entries });
      }
      if (batch.size >= WRITE_BATCH || c === ids.length - 1) {
        out.append(batch);
        batch = new Map();
      }
    }
    return out;
  };
  return {
    /** A credential loaded; returns its number for addRelationship. */
    addCredential(id: string, listFields: string): number {
      fields.push(listFields);
      return ids.push(id) - 1;
    },
    /** A relationship loaded between two credentials added; returns its number for setRelationship. */
    addRelationship(supervisor: number, affiliate: number, listFields: string): number {
      supervisors.push(supervisor);
      affiliates.push(affiliate);
      return edges.push(listFields) - 1;
    },
    /** A relationship listed again: its later row's values win, as on the upsert path. */
    setRelationship: (n: number, listFields: string) => void (edges[n] = listFields),
    /**
     * Writes the lists into files in `dir` (while the engine loads what came before) and hands
     * them to `sink`, the affiliate lists first, into tables that must be empty.
     */
    write(dir: string, sink: Pick<BulkSink, 'header'>) {
      const format = (kind: BulkKind) => sink.header(kind, COLUMNS, []);
      const supervisorLists = write(path.join(dir, 'supervisor-lists.csv'), format('supervisorLists'), affiliates, (i) => {
        const [type, start, role, end] = edges[i].split('\t');
        return supervisorEntry(ids[supervisors[i]], role, type, start, end);
      });
      const affiliateLists = write(path.join(dir, 'affiliate-lists.csv'), format('affiliateLists'), supervisors, (i) => {
        const [type, start, role, end] = edges[i].split('\t');
        const [, sortKey, number, licenseType, fullName, businessName] = fields[affiliates[i]].split('\t');
        return affiliateEntry(sortKey, ids[affiliates[i]], type, start, role, end, number, licenseType, fullName, businessName);
      });
      return {
        async load(to: Pick<BulkSink, 'load'>) {
          if (affiliateLists.rows) await to.load('affiliateLists', affiliateLists.file());
          if (supervisorLists.rows) await to.load('supervisorLists', supervisorLists.file());
        },
      };
    },
  };
}
