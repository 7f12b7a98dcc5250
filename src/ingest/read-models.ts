// The supervision read models on LadybugDB: SupervisorList and AffiliateList rows built here from
// an export of the relationships and COPYed into their tables. Aggregating them in Cypher (Neo4j's
// engine/neo4j/*-list statements) took 70 s at 3M credentials and failed in a 2 GB buffer pool;
// the entries are the same.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GraphTx } from '../graph/graph-port.js';
import { csvHeader, csvRow, readBulkFile } from '../graph/ladybug-bulk-file.js';

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

// Tabs part an entry's fields and line breaks its entries: neither may be inside a field.
const field = (v: string | null) => (v ?? '').replace(/[\t\n\r]/g, ' ');

interface Lists {
  state: string;
  entries: string[];
}

const push = (lists: Map<string, Lists>, id: string, state: string, entry: string) => {
  const list = lists.get(id);
  if (list) list.entries.push(entry);
  else lists.set(id, { state, entries: [entry] });
};

/** Writes lists as a bulk file (id, state, entries) and loads it with `query`; affiliate lists sorted. */
async function copyLists(t: Required<Pick<GraphTx, 'bulkFile'>>, query: string, lists: Map<string, Lists>, file: string, sorted: boolean) {
  if (!lists.size) return;
  const columns = ['id', 'state', 'entries'];
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, `${csvHeader(columns)}\n`);
    let buffer: string[] = [];
    const flush = () => {
      fs.writeSync(fd, buffer.join(''));
      buffer = [];
    };
    for (const [id, { state, entries }] of lists) {
      if (sorted) entries.sort();
      buffer.push(`${csvRow(columns, { id, state, entries: entries.join('\n') })}\n`);
      if (buffer.length >= 10_000) flush();
    }
    flush();
  } finally {
    fs.closeSync(fd);
  }
  try {
    // Entries hold line breaks: the file is read serially.
    await t.bulkFile(query, { path: file, columns, dates: [], lineBreaks: true });
  } finally {
    fs.rmSync(file, { force: true });
  }
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
 * ones, a group of states at a time (see readModelStates, stateGroups).
 */
export async function writeReadModelsFromExport(
  t: Required<Pick<GraphTx, 'run' | 'bulkFile' | 'exportFile'>>,
  q: ReadModelQueries,
  { supervised, supervising }: { supervised: string[]; supervising: string[] },
  pairs: StatePair[],
  groupRelationships = GROUP_RELATIONSHIPS,
) {
  for (const state of supervised) await t.run(q.deleteSupervisorLists, { state });
  for (const state of supervising) await t.run(q.deleteAffiliateLists, { state });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-read-models-'));
  try {
    for (const group of stateGroups(supervised, supervising, pairs, groupRelationships)) await writeGroup(t, q, group, supervised, supervising, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function writeGroup(
  t: Required<Pick<GraphTx, 'run' | 'bulkFile' | 'exportFile'>>,
  q: ReadModelQueries,
  group: string[],
  supervised: string[],
  supervising: string[],
  dir: string,
) {
  const into = new Set(group.filter((s) => supervised.includes(s)));
  const from = new Set(group.filter((s) => supervising.includes(s)));
  const supervisorLists = new Map<string, Lists>();
  const affiliateLists = new Map<string, Lists>();
  const exported = await t.exportFile(q.rows, { supervisor_states: [...into], affiliate_states: [...from] });
  try {
    for await (const chunk of readBulkFile(exported)) {
      for (const [sid, sstate, aid, astate, role, type, start, end, sortKey, number, licenseType, fullName, businessName] of chunk) {
        if (into.has(astate!)) push(supervisorLists, aid!, astate!, [sid, role, type, start, end].map(field).join('\t'));
        if (from.has(sstate!)) {
          const entry = [sortKey, aid, type, start, role, end, number, licenseType, fullName, businessName].map(field).join('\t');
          push(affiliateLists, sid!, sstate!, entry);
        }
      }
    }
  } finally {
    fs.rmSync(exported, { force: true });
  }
  const file = path.join(dir, 'lists.csv');
  await copyLists(t, q.copySupervisorLists, supervisorLists, file, false);
  await copyLists(t, q.copyAffiliateLists, affiliateLists, file, true);
}
