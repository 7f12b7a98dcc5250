import { TRANSFER_WINDOW_DAYS } from '../../domain/changes.js';
import type { GraphEngine, GraphTx } from '../graph-port.js';
import type { QueryFiles } from '../query-files.js';
import { idBatches } from '../unwind.js';

/** Affiliates (or supervisors, in a build) per statement, and per transaction in place. */
const BATCH = 2000;
/** Marks the store's day counts as built for every supervisor (roster-changes-days.cypher reads them then). */
const DAYS_BUILT = "MATCH (m:Migration {id: 'roster-days'}) RETURN true AS built";

/**
 * The roster marks of the relationships into affiliates (cypher/engine/neo4j/roster-marks.cypher),
 * then their supervisors' day counts (roster-days.cypher), which hang on the marks.
 * `inUnit`: inside a refresh's unit, whose generation versions the changed marks and counts.
 * `inPlace`: after an import, a transaction per batch, so that a batch bounds what one holds; the
 * days of every supervisor of the affiliates.
 * `buildDays`: once, for a store written before the day counts (or by the offline importer).
 */
export function neo4jRosterMarks(files: QueryFiles) {
  const marks = files.get('engine/neo4j/roster-marks');
  const days = files.get('engine/neo4j/roster-days');
  const supervisorsOf = files.get('engine/neo4j/supervisors-of');
  const dayPairs = files.get('engine/neo4j/roster-day-pairs');
  const params = { window: TRANSFER_WINDOW_DAYS, g: null, supervisors: null, pairs: null };
  return {
    async inUnit(t: GraphTx, ids: string[]) {
      await idBatches(t, marks, ids, params);
      // Each supervisor's day once for the run: a large roster's days are named by many batches of affiliates.
      const pairs = new Map<string, [string, string]>();
      for (const r of await idBatches(t, dayPairs, ids)) pairs.set(`${r.sid}\u0000${r.day}`, [r.sid as string, r.day as string]);
      const all = [...pairs.values()];
      for (let i = 0; i < all.length; i += BATCH) await t.run(days, { ...params, pairs: all.slice(i, i + BATCH) });
    },
    async inPlace(graph: Pick<GraphEngine, 'writeTransaction' | 'read'>, ids: string[]) {
      const supervisors = new Set<string>();
      for (let i = 0; i < ids.length; i += BATCH) {
        const batch = ids.slice(i, i + BATCH);
        await graph.writeTransaction((t) => t.run(marks, { ...params, ids: batch }));
        for (const r of await graph.read(supervisorsOf, { ids: batch })) supervisors.add(r.id as string);
      }
      // In place, a relationship's former day is gone: its supervisors' days are all counted again.
      const all = [...supervisors];
      for (let i = 0; i < all.length; i += BATCH) await graph.writeTransaction((t) => t.run(days, { ...params, supervisors: all.slice(i, i + BATCH) }));
    },
    /**
     * Every supervisor's day counts, a transaction per batch of supervisors in id order, then the
     * Migration node that says so; a build cut short recounts from the start at the next (a count
     * equal to its node's writes nothing). `hold` runs the build alone in the graph (the refresh
     * claim, versions.ts): two builds at once would each create a day's node.
     */
    async buildDays(graph: Pick<GraphEngine, 'read'>, hold: <T>(fn: (graph: Pick<GraphEngine, 'writeTransaction' | 'read'>) => Promise<T>) => Promise<T>) {
      if ((await graph.read(DAYS_BUILT)).length) return;
      await hold(async (held) => {
        if ((await held.read(DAYS_BUILT)).length) return;
        for (let after = ''; ; ) {
          const batch = (await held.read(files.get('engine/neo4j/supervisor-ids'), { after, limit: BATCH })).map((r) => r.id as string);
          if (!batch.length) break;
          await held.writeTransaction((t) => t.run(days, { ...params, supervisors: batch }));
          after = batch.at(-1)!;
        }
        await held.writeTransaction((t) => t.run("MERGE (:Migration {id: 'roster-days'})"));
      });
    },
  };
}
