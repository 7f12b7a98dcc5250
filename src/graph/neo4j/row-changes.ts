// What each refresh changed of a state's search rows, kept in the graph by the run that changed them
// (docs/graph.md, "Versions"): a search index behind by a few publishes reads those rows as the run
// wrote them, instead of every process reading the state, or the changed rows, again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BROKERAGE_RELATIONSHIP_TYPES } from '../../domain/vocabulary.js';
import { bulkFields, bulkValue, csvRow, readBulkRecords } from '../bulk-file.js';
import type { GraphTx } from '../graph-port.js';
import type { QueryFiles } from '../query-files.js';
import { SEARCH_BROKER_COLUMNS, SEARCH_INDEX_COLUMNS, type ChangedRows, type SearchRowsPacker, type SearchVersion } from '../search-source-port.js';
import { EXPORT_FILE_PREFIX, type Neo4jEngine } from './engine.js';

/** A run that changes more of a state's rows keeps no list: search indexes read the state whole (a takeover). */
const MOST = 100_000;
/** Rows a list's part holds: what one statement reads and writes (about 1.5 MB of text). */
const PART = 10_000;
/** Versions kept per state: a search index further behind reads the state whole. */
const KEEP = 16;

const lines = (columns: readonly string[], rows: Record<string, unknown>[]) => rows.map((r) => `${csvRow(columns as string[], r)}\n`).join('');

/** `pack`: where given, a run also keeps its changed rows packed as the search index reads them, for a process one publish behind. */
export function neo4jRowChanges(graph: Neo4jEngine, files: QueryFiles, pack?: SearchRowsPacker) {
  const q = (name: string) => files.get(name);
  const queries = {
    next: q('engine/neo4j/versions/row-changes-next'),
    ids: q('engine/neo4j/versions/row-changes-ids'),
    write: q('engine/neo4j/versions/row-changes-write'),
    pack: q('engine/neo4j/versions/row-changes-pack'),
    publish: q('engine/neo4j/versions/row-changes-publish'),
    read: q('engine/neo4j/versions/row-changes'),
    rows: q('engine/neo4j/search-rows-by-id'),
    brokers: q('engine/neo4j/search-brokers-by-id'),
    brokerages: q('engine/neo4j/search-brokerages-by-id'),
  };
  return {
    /**
     * Inside a refresh of `state` (its statements see the run's generation), before it publishes:
     * the credentials it changed and their rows as its generation shows them, in parts of PART.
     */
    async keep(t: GraphTx, state: string): Promise<void> {
      const [next] = await t.run(queries.next, { state, keep: KEEP });
      if (!next) return;
      const version = Number(next.version);
      const ids = (await t.run(queries.ids, { state, most: MOST })).map((r) => r.id as string);
      if (ids.length > MOST) return void (await t.run(queries.write, { state, version, part: 0, parts: 1, ids: null, rows: null }));
      const parts = Math.max(1, Math.ceil(ids.length / PART));
      // Bounded by MOST rows: the pack is of the whole list, in result order.
      const packing: (string | null)[][] = [];
      for (let part = 0; part < parts; part++) {
        const some = ids.slice(part * PART, (part + 1) * PART);
        const params = { ids: some, states: [state] };
        // A snapshot listed again changes nothing: an empty list, with no reads.
        const found: [readonly string[], Record<string, unknown>[]][] = !some.length
          ? []
          : [
              [SEARCH_INDEX_COLUMNS, await t.run(queries.rows, params)],
              [SEARCH_BROKER_COLUMNS, await t.run(queries.brokers, { ...params, types: [...BROKERAGE_RELATIONSHIP_TYPES] })],
              [SEARCH_BROKER_COLUMNS, await t.run(queries.brokerages, params)],
            ];
        if (pack) for (const [columns, rows] of found) for (const r of rows) packing.push(columns.map((c) => bulkValue(r[c])));
        await t.run(queries.write, { state, version, part, parts, ids: some, rows: found.map(([columns, rows]) => lines(columns, rows)).join('') });
      }
      if (pack && ids.length) await t.run(queries.pack, { state, version, packed: await pack(packing) });
    },
    /** In the transaction that publishes, after the counts moved the states' rows_version: the lists kept for them become readable. */
    publish: (t: GraphTx, states: string[]) => t.run(queries.publish, { states }),
    /**
     * The credentials of `states` whose rows moved from `from` to `to` and their rows at `to`
     * (ChangedRows): each state's pack where every state moved by one publish whose run packed
     * them, else a new file (the caller's to remove); undefined when a state lacks a list for a
     * version between.
     */
    async since(from: SearchVersion, to: SearchVersion, states: string[]): Promise<ChangedRows | undefined> {
      const steps = states.map((state) => ({ state, from: Number(from.states?.[state] ?? 0), to: Number(to.states?.[state] ?? 0) }));
      if (steps.some((s) => !(s.from < s.to))) return undefined;
      type Part = { version: number; part: number; parts: number; ids: string[] | null; rows: string | null; packed: Uint8Array | null };
      const read = async (packed: boolean) => new Map((await graph.read(queries.read, { steps, packed })).map((r) => [r.state as string, r.parts as Part[]]));
      /** Every part of every version between, or undefined. */
      const whole = (found: Map<string, Part[]>, packed: boolean) => {
        for (const s of steps) {
          const parts = found.get(s.state) ?? [];
          for (let v = s.from + 1; v <= s.to; v++) {
            const of = parts.filter((p) => p.version === v);
            // A list of no rows (a snapshot listed again) has no pack.
            if (!of.length || of.length !== of[0].parts || of.some((p) => p.ids === null || (packed ? p.part === 0 && p.packed === null && p.ids.length > 0 : p.rows === null))) return undefined;
          }
        }
        return found;
      };
      if (steps.every((s) => s.to === s.from + 1)) {
        const found = whole(await read(true), true);
        if (found) {
          const lists = [...found.values()];
          return { ids: lists.flatMap((parts) => parts.flatMap((p) => p.ids!)), packed: lists.flatMap((parts) => parts.find((p) => p.part === 0)?.packed ?? []) };
        }
      }
      const found = whole(await read(false), false);
      if (!found) return undefined;
      // Newest first: a credential's rows are those of the last version that changed it.
      // Named as the exports are: a killed process's are removed at the next open (engine.ts).
      const file = path.join(os.tmpdir(), `${EXPORT_FILE_PREFIX}${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.csv`);
      const part = `${file}.part`;
      const out = fs.createWriteStream(file);
      const ids: string[] = [];
      try {
        for (const parts of found.values()) {
          const seen = new Set<string>();
          let version = -1;
          let taken = seen;
          for (const p of parts) {
            // The state's credentials a later version changed: their rows here are not the last.
            if (p.version !== version) [version, taken] = [p.version, new Set(seen)];
            for (const id of p.ids!) {
              if (seen.has(id)) continue;
              seen.add(id);
              ids.push(id);
            }
            if (taken.size === 0) {
              out.write(p.rows!);
              continue;
            }
            fs.writeFileSync(part, p.rows!);
            for await (const records of readBulkRecords(part)) for (const record of records) if (!taken.has(bulkFields(record)[1]!)) out.write(`${record}\n`);
          }
        }
        await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
        return { ids, file };
      } catch (err) {
        out.destroy();
        fs.rmSync(file, { force: true });
        throw err;
      } finally {
        fs.rmSync(part, { force: true });
      }
    },
  };
}
export type Neo4jRowChanges = ReturnType<typeof neo4jRowChanges>;
