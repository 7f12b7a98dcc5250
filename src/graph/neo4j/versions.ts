import { ConflictError } from '../../errors.js';
import type { GraphTx, Params } from '../graph-port.js';
import { goneHere, thisProcess } from '../process-holder.js';
import { splitStatements, type QueryFiles } from '../query-files.js';
import type { Neo4jEngine } from './engine.js';
import { READER_STALE_SECONDS } from './readers.js';

/** A claim not renewed for this long belongs to a process that died: the next run takes it over. */
const STALE_SECONDS = 30;
const BEAT_MS = 5_000;
/** How often a run waiting for another's claim asks again. */
const WAIT_MS = 1_000;
/** How often collection asks whether the readers have moved on... */
const READERS_POLL_MS = 100;
/**
 * ...and how long it waits for one that reports an older generation (a request or an export still
 * reading it) before it collects anyway: an export then reads again (search-source.ts).
 */
const READERS_WAIT_MS = 120_000;
/**
 * How long a run's process waits after its publish for the serving processes' indexes to take it
 * up before it collects: a takeover's state is read whole, for minutes at national scale (decision
 * 0032); past it the collection is left to the next run.
 */
const CATCH_UP_WAIT_MS = 300_000;

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
export function neo4jVersions(graph: Neo4jEngine, files: QueryFiles, holder = thisProcess()) {
  const q = (name: string) => files.get(`engine/neo4j/versions/${name}`);
  const queries = {
    claim: q('claim'),
    beat: q('beat'),
    release: q('release'),
    publish: q('publish'),
    recover: splitStatements(q('recover')),
    collect: splitStatements(q('collect')),
    behind: q('readers-behind'),
  };
  /** Collection after this process's last publish, once its readers have moved on. */
  let collecting: Promise<void> | undefined;
  let closing = false;
  /** Collects what readers of `published` no longer see. */
  const collectAt = (t: GraphTx, published: number) => steps(t, queries.collect, { published });
  /**
   * Whether no reader heard from lately may still read a generation before `published`
   * (readers.ts); a killed process on this host reads nothing, however recent its last beat.
   */
  const readersPast = async (published: number): Promise<boolean> => {
    const [row] = await graph.read(queries.behind, { published, stale_seconds: READER_STALE_SECONDS, g: 0 });
    return ((row?.holders ?? []) as string[]).every(goneHere);
  };
  /** Waits until readersPast(published), for at most `waitMs`; false when it stopped waiting. */
  const readersMoveOn = async (published: number, waitMs = READERS_WAIT_MS): Promise<boolean> => {
    for (const until = Date.now() + waitMs; !(await readersPast(published)); ) {
      if (closing || Date.now() >= until) return false;
      await new Promise((r) => setTimeout(r, READERS_POLL_MS));
    }
    return true;
  };

  /** Renews this process's claim while it holds it: a claim silent for STALE_SECONDS is taken over. */
  const renewing = () => setInterval(() => void graph.writeNow(queries.beat, { holder }).catch(() => undefined), BEAT_MS);
  const steps = (t: GraphTx, statements: string[], params: Params) => statements.reduce<Promise<unknown>>((p, s) => p.then(() => t.run(s, params)), Promise.resolve());

  /** The published generation once this process holds the claim; waits for another run to end. */
  async function claim(t: GraphTx, onWait: (holder: string) => void): Promise<number> {
    for (;;) {
      let [row] = await t.run(queries.claim, { holder, gone: null, stale_seconds: STALE_SECONDS });
      if (!row.free && goneHere(row.holder as string)) [row] = await t.run(queries.claim, { holder, gone: row.holder, stale_seconds: STALE_SECONDS });
      if (row.free) return Number(row.generation);
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
        const published = await claim(t, onWait);
        const beat = renewing();
        try {
          await steps(t, queries.recover, { published });
          // The versions the last publish replaced go once no reader can still see them, and its
          // pending values become their credentials' own: the run writes on published values only.
          await readersMoveOn(published);
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
          const collection: Promise<void> = (collecting = readersMoveOn(g, CATCH_UP_WAIT_MS)
            .then(() => (collecting === collection && !closing ? this.collect() : undefined))
            .catch(() => undefined));
          return out;
        } catch (err) {
          await t.run(queries.release, { holder }).catch(() => undefined);
          throw err;
        } finally {
          clearInterval(beat);
        }
      });
    },

    /**
     * Runs `fn` holding the claim as a run holds it, publishing nothing: what a start builds in
     * place (roster-marks.ts) never meets a refresh, or the same build by another process.
     */
    exclusive<T>(fn: (graph: Pick<Neo4jEngine, 'writeTransaction' | 'read'>) => Promise<T>, onWait: (holder: string) => void = () => undefined): Promise<T> {
      return graph.writeSteps(async (t, transaction) => {
        await claim(t, onWait);
        const beat = renewing();
        try {
          return await fn({ writeTransaction: transaction, read: (query, params) => graph.read(query, params) });
        } finally {
          clearInterval(beat);
          await t.run(queries.release, { holder }).catch(() => undefined);
        }
      });
    },

    /**
     * At close: what a publish of this process left to collect, collected once its readers have
     * moved on (every serving process's index included), or left to the next run after CATCH_UP_WAIT_MS.
     */
    async settle(): Promise<void> {
      await collecting;
      closing = true;
    },

    /** Removes the versions no reader sees (another run does it first, else this after a publish). */
    collect(): Promise<void> {
      return graph.writeSteps(async (t) => {
        const [row] = await t.run(queries.claim, { holder, gone: null, stale_seconds: STALE_SECONDS });
        if (!row.free) return;
        // A collection at 3M outlasts the claim's silence limit: the next run would take over mid-way.
        const beat = renewing();
        try {
          if (await readersPast(Number(row.generation))) await collectAt(t, Number(row.generation));
        } finally {
          clearInterval(beat);
          await t.run(queries.release, { holder });
        }
      });
    },
  };
}
export type Neo4jVersions = ReturnType<typeof neo4jVersions>;
