import { randomUUID } from 'node:crypto';
import type { Params, Row } from '../graph-port.js';
import { thisProcess } from '../process-holder.js';
import { heldPins } from '../read-scope.js';

/** A reader not heard from for this long is gone (or lost Neo4j): collection stops waiting for it. */
export const READER_STALE_SECONDS = 30;
/** How often a reader reports, and so reads the published generation... */
const BEAT_MS = 1_000;
/** ...which reads take as it stands for this long: a request waits for a beat (a write) only when beats fall behind. */
const SEEN_MS = 2 * BEAT_MS;
/** A reader whose view or holds moved reports again this soon, so that collection need not wait a beat... */
const SOON_MS = 20;
/** ...and after this process writes (an import commits a batch every few milliseconds). */
const AFTER_WRITE_MS = 100;

// One statement reports what this reader may still read and gives the published generation: a
// reader that reports nothing yet reports that generation, and reads nothing older.
const BEAT = `OPTIONAL MATCH (s:Snapshot {id: 'graph'})
MERGE (r:GraphReader {id: $reader})
SET r.oldest = coalesce($oldest, s.generation, 0), r.holder = $holder, r.beat_at = datetime()
RETURN coalesce(s.generation, 0) AS g`;
const LEAVE = 'MATCH (r:GraphReader {id: $reader}) DELETE r';

/**
 * This process's reads of the published generation, as the graph sees them: every version read
 * goes through `published()` (pinned per request by read-scope.ts, counted while it runs by
 * `holding`; a search index holds the generation it serves: `hold`), and a heartbeat on a
 * `GraphReader` node reports the oldest generation any of them may still read. A refresh collects
 * what generation g replaced once every reader heard within READER_STALE_SECONDS reports g or
 * later (versions.ts), however long a request runs.
 */
export function neo4jReaders(write: (query: string, params: Params) => Promise<Row[]>, pinKey: string) {
  const reader = `${thisProcess()}:${randomUUID().slice(0, 8)}`;
  /** The generation last seen published (one beat at a time: it only moves forward, unless the store is replaced). */
  let seen: number | undefined;
  let beating: Promise<number> | undefined;
  let beatAt = -Infinity;
  /** Moves with each write of this process: a beat sent before it may have read the generation before it. */
  let epoch = 0;
  let sentAt = 0;
  let reported: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let soon: NodeJS.Timeout | undefined;
  let left = false;
  /** Statements running now, by the generation they read. */
  const reading = new Map<number, number>();
  /** Generations held until released, by holder (a search index: the one it serves). */
  const holds = new Map<string, number>();

  const oldest = (): number | undefined => {
    let min = seen;
    for (const g of reading.keys()) if (min === undefined || g < min) min = g;
    for (const g of holds.values()) if (min === undefined || g < min) min = g;
    // A pin still being read resolves at what the beat in flight reads: `seen` or later.
    for (const g of heldPins(pinKey)) if (typeof g === 'number' && (min === undefined || g < min)) min = g;
    return min;
  };

  const beat = (): Promise<number> => {
    beating ??= (async () => {
      const sent = (sentAt = epoch);
      try {
        const [row] = await write(BEAT, { reader, holder: thisProcess(), oldest: (reported = oldest()) ?? null });
        if (sent === epoch) beatAt = Date.now();
        const g = Number(row?.g ?? 0);
        seen = g;
        if (!left) timer ??= setInterval(() => void beat().catch(() => undefined), BEAT_MS).unref();
        if (oldest() !== reported) again(SOON_MS);
        return seen;
      } finally {
        beating = undefined;
      }
    })();
    return beating;
  };
  const again = (ms: number) => {
    if (left || soon) return;
    soon = setTimeout(() => {
      soon = undefined;
      void beat().catch(() => undefined);
    }, ms).unref();
  };

  return {
    /** The published generation, about a beat old (this process's writes ask again at once: `forget`). */
    published(): Promise<number> {
      if (seen !== undefined && Date.now() - beatAt < SEEN_MS) return Promise.resolve(seen);
      // A beat sent before this process's last write may answer the generation before it: ask again after it.
      return beating && sentAt !== epoch ? beating.then(beat, beat) : beat();
    },
    /** This process wrote: the next read asks for the published generation, and a report follows. */
    forget() {
      epoch += 1;
      beatAt = -Infinity;
      if (seen !== undefined) again(AFTER_WRITE_MS);
    },
    /** Runs `read` at generation `g`, counted as held while it runs. */
    async holding<T>(g: number, read: () => Promise<T>): Promise<T> {
      reading.set(g, (reading.get(g) ?? 0) + 1);
      try {
        return await read();
      } finally {
        const n = reading.get(g)! - 1;
        if (n) reading.set(g, n);
        else reading.delete(g);
        if (seen !== undefined && g < seen) again(SOON_MS);
      }
    },
    /**
     * Holds generation `g` for `key` until it is held at another or released (undefined): it is
     * reported as read meanwhile. Resolves once a report sent after the change is in the graph.
     */
    hold(key: string, g: number | undefined): Promise<void> {
      if (g === undefined) holds.delete(key);
      else holds.set(key, g);
      if (left) return Promise.resolve();
      return (beating ? beating.then(beat, beat) : beat()).then(() => undefined);
    },
    /** Stops reporting and removes this reader, so that collection waits for it no more. */
    async leave(): Promise<void> {
      left = true;
      clearInterval(timer);
      clearTimeout(soon);
      if (seen !== undefined) await write(LEAVE, { reader }).catch(() => undefined);
    },
  };
}
