import type { GraphEngine, GraphTx } from '../graph-port.js';
import type { QueryFiles } from '../query-files.js';

/** Affiliates synced per statement: a batch's links bound what one statement holds. */
const BATCH = 5000;

/**
 * The SUPERVISES_IN_FORCE relationships an affiliates page reads on Neo4j (cypher/schema/neo4j.cypher):
 * one beside each SUPERVISES link in force on the InForceDay node's date, kept so by `sync` after
 * every write and moved to another day by `moveTo`. Both lock that node first, so that a write and
 * a move never interleave.
 */
export function neo4jInForce(graph: GraphEngine, files: QueryFiles) {
  const q = (name: string) => files.get(`engine/neo4j/in-force-${name}`);
  const queries = { day: q('day'), move: q('move'), changed: q('changed'), affiliates: q('affiliates'), drop: q('drop'), add: q('add') };

  /** Brings the in-force relationships into `ids` in line with their links on `day`. */
  async function syncIds(t: GraphTx, ids: string[], day: string) {
    for (let i = 0; i < ids.length; i += BATCH) {
      const batch = ids.slice(i, i + BATCH);
      await t.run(queries.drop, { ids: batch, day });
      await t.run(queries.add, { ids: batch, day });
    }
  }

  const lockedDay = async (t: GraphTx) => ((await t.run(queries.day))[0]?.day as string | null | undefined) ?? undefined;

  let moving: Promise<void> | undefined;

  return {
    /** The day the in-force relationships are kept for (none before the schema builds them), locked as `t` reads it. */
    day: lockedDay,
    /**
     * After a write in `t`: the in-force relationships into the credentials `ids`, but for those of
     * `settled`, kept in line as they were written on its day, when that is still the day.
     */
    async syncIds(t: GraphTx, ids: string[], settled?: { day: string | undefined; ids: Set<string> }) {
      const day = await lockedDay(t);
      if (day) await syncIds(t, settled?.day === day ? ids.filter((id) => !settled.ids.has(id)) : ids, day);
    },

    /** After a write to `states` in `t`: the in-force relationships into their credentials. */
    async sync(t: GraphTx, states: Iterable<string>) {
      // No day: the schema has not built them yet, and will.
      const day = await lockedDay(t);
      if (!day) return;
      for (const state of states) await syncIds(t, (await t.run(queries.affiliates, { state })).map((r) => r.id as string), day);
    },

    /**
     * Moves the in-force relationships to `day` in one transaction: the links that start or end
     * between the two days. Once at a time; a failed move leaves the day as it was, and readers
     * on the traversal until the next one.
     */
    moveTo(day: string): Promise<void> {
      moving ??= graph
        .writeTransaction(async (t) => {
          const from = await lockedDay(t);
          if (!from || from === day) return;
          const [lo, hi] = from < day ? [from, day] : [day, from];
          const ids = (await t.run(queries.changed, { lo, hi })).map((r) => r.id as string);
          await syncIds(t, [...new Set(ids)], day);
          await t.run(queries.move, { day });
        })
        .finally(() => (moving = undefined));
      return moving;
    },
  };
}
