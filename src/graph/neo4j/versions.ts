import { ConflictError } from '../../errors.js';
import type { GraphTx, Params } from '../graph-port.js';
import { goneHere, thisProcess } from '../process-holder.js';
import { splitStatements, type QueryFiles } from '../query-files.js';
import type { Neo4jEngine } from './engine.js';

/** A claim not renewed for this long belongs to a process that died: the next run takes it over. */
const STALE_SECONDS = 30;
const BEAT_MS = 5_000;
/** How often a run waiting for another's claim asks again. */
const WAIT_MS = 1_000;
/** This process times the drain from its own clock, the graph from Neo4j's: a margin for the two. */
export const CLOCK_MARGIN_MS = 250;

/** A step of a versioned unit: its statements commit one by one, with the run's generation. */
export interface VersionedTx extends GraphTx {
  /** Runs `work` in the transaction that publishes the run, in order, after the steps. */
  atPublish(work: (t: GraphTx) => Promise<unknown>): void;
}

/**
 * Refreshes that readers see whole, on a Neo4j that holds a transaction's writes in its heap until
 * it commits: each statement commits on its own, writing versions of generation $g that readers
 * (who read the published one) do not see; one small transaction publishes it. One run at a time
 * in the graph (a `Snapshot` node holds the claim); a run that died is undone by the next one.
 * docs/graph.md, "Versions", has the model.
 */
export function neo4jVersions(graph: Neo4jEngine, files: QueryFiles) {
  const q = (name: string) => files.get(`engine/neo4j/versions/${name}`);
  const queries = {
    claim: q('claim'),
    beat: q('beat'),
    release: q('release'),
    publish: q('publish'),
    recover: splitStatements(q('recover')),
    collect: splitStatements(q('collect')),
  };
  const holder = thisProcess();
  // How long after a publish the versions it replaced stay: a reader pins the generation it saw
  // for its request, and another process sees a publish within a second (engine.ts).
  const drainMs = graph.versionDrainMs;
  let collecting: NodeJS.Timeout | undefined;
  let publishedAt: number | undefined;
  /** Collects what readers of `published` no longer see. */
  const collectAt = (t: GraphTx, published: number) => steps(t, queries.collect, { published });

  const steps = (t: GraphTx, statements: string[], params: Params) => statements.reduce<Promise<unknown>>((p, s) => p.then(() => t.run(s, params)), Promise.resolve());

  /** The published generation once this process holds the claim; waits for another run to end. */
  async function claim(t: GraphTx, onWait: (holder: string) => void): Promise<{ published: number; msAgo: number | null }> {
    for (;;) {
      let [row] = await t.run(queries.claim, { holder, gone: null, stale_seconds: STALE_SECONDS });
      if (!row.free && goneHere(row.holder as string)) [row] = await t.run(queries.claim, { holder, gone: row.holder, stale_seconds: STALE_SECONDS });
      if (row.free) return { published: Number(row.generation), msAgo: row.published_ms_ago == null ? null : Number(row.published_ms_ago) };
      onWait(row.holder as string);
      await new Promise((r) => setTimeout(r, WAIT_MS));
    }
  }

  return {
    /**
     * Runs `fn` as one run: waits for the claim, undoes what a dead run left, then `fn`'s
     * statements commit one by one with $g (the run's generation) and $published, and the run
     * is published with what `fn` deferred to it. Nothing is published if `fn` fails.
     */
    unit<T>(fn: (t: VersionedTx) => Promise<T>, onWait: (holder: string) => void = () => undefined): Promise<T> {
      return graph.writeSteps(async (t, transaction) => {
        const { published, msAgo } = await claim(t, onWait);
        const beat = setInterval(() => void graph.writeNow(queries.beat, { holder }).catch(() => undefined), BEAT_MS);
        try {
          await steps(t, queries.recover, { published });
          // The versions the last publish replaced go once no reader can still see them, and its
          // pending values become their credentials' own: the run writes on published values only.
          if (msAgo !== null && msAgo < drainMs) await new Promise((r) => setTimeout(r, drainMs - msAgo + CLOCK_MARGIN_MS));
          await collectAt(t, published);
          const g = published + 1;
          const deferred: ((t: GraphTx) => Promise<unknown>)[] = [];
          const versioned: VersionedTx = {
            run: (query, params) => t.run(query, { ...params, published, g }),
            stream: t.stream && ((query, params) => t.stream!(query, { ...params, published, g })),
            atPublish: (work) => void deferred.push(work),
          };
          const out = await fn(versioned);
          await transaction(async (tx) => {
            const inRun: GraphTx = { run: (query, params) => tx.run(query, { ...params, published, g }) };
            for (const work of deferred) await work(inRun);
            if (!(await tx.run(queries.publish, { holder, g })).length) throw new ConflictError(`the refresh lost its claim on the graph (silent for ${STALE_SECONDS} s, another run took it over): nothing was published`);
          });
          publishedAt = Date.now();
          clearTimeout(collecting);
          collecting = setTimeout(() => void this.collect().catch(() => undefined), drainMs + CLOCK_MARGIN_MS).unref();
          return out;
        } catch (err) {
          await t.run(queries.release, { holder }).catch(() => undefined);
          throw err;
        } finally {
          clearInterval(beat);
        }
      });
    },

    /** What a publish of this process leaves to do once readers are done with what it replaced: waits for them, then collects. */
    async settle(): Promise<void> {
      if (publishedAt === undefined) return;
      clearTimeout(collecting);
      await new Promise((r) => setTimeout(r, Math.max(0, publishedAt! + drainMs + CLOCK_MARGIN_MS - Date.now())));
      await this.collect();
    },

    /** Removes the versions no reader sees (another run does it first, else this after a publish). */
    collect(): Promise<void> {
      return graph.writeSteps(async (t) => {
        const [row] = await t.run(queries.claim, { holder, gone: null, stale_seconds: STALE_SECONDS });
        if (!row.free) return;
        try {
          if (row.published_ms_ago != null && Number(row.published_ms_ago) >= drainMs) await collectAt(t, Number(row.generation));
        } finally {
          await t.run(queries.release, { holder });
        }
      });
    },
  };
}
export type Neo4jVersions = ReturnType<typeof neo4jVersions>;
