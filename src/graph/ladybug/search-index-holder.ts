// The holder of LadybugDB's name index (search-index.ts): built from an export of the graph, in a
// worker thread past a small size, rebuilt a moment after writes, and kept in a snapshot file
// between starts of the same graph file.
import fs from 'node:fs';
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { LadybugEngine } from './engine.js';
import type { SearchIndexHolder } from '../search-port.js';
import { buildSearchIndexFromFile, searchIndexFrom, type SearchIndex, type SearchIndexParts } from './search-index.js';

/** Exports below this size are indexed on the main thread (the demo data: 60 KB, a few ms). */
const IN_THREAD_BYTES = 1 << 20;

/** Builds the index from an export file (SEARCH_INDEX_COLUMNS rows) in a worker thread. */
export function buildInWorker(file: string): Promise<SearchIndex> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./search-index-worker.mjs', import.meta.url), { workerData: { file }, resourceLimits: { maxYoungGenerationSizeMb: 128 } });
    worker.once('message', (m: { parts: SearchIndexParts } | { error: string }) => {
      if ('error' in m) reject(new Error(`search index build failed: ${m.error}`));
      else resolve(searchIndexFrom(m.parts));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the search index worker stopped with code ${code}`)));
  });
}

/** The holder of LadybugDB's index: its indexes keep the data they were made from. */
export interface LadybugSearchIndexHolder extends SearchIndexHolder {
  current(): Promise<SearchIndex>;
}

/** Quiet time after a write before the index is rebuilt unasked (an import commits many batches). */
const REBUILD_AFTER_MS = 250;
const SNAPSHOT_VERSION = 1;

/**
 * `x` with every typed array in it owning its memory. Node's v8.deserialize gives Uint8Arrays as
 * views into the buffer it read, so the ids, status and type codes kept the whole file's buffer
 * alive (0007).
 */
function ownBuffers<T>(x: T): T {
  if (ArrayBuffer.isView(x)) return (x.byteLength === x.buffer.byteLength ? x : (x as unknown as Uint8Array).slice()) as T;
  if (Array.isArray(x)) return x.map(ownBuffers) as T;
  if (x && typeof x === 'object') for (const [k, v] of Object.entries(x)) (x as Record<string, unknown>)[k] = ownBuffers(v);
  return x;
}

/** The parts kept for a graph stamp, or undefined when the file is absent, unreadable or another graph's. */
function readSnapshot(file: string, stamp: string): SearchIndexParts | undefined {
  try {
    const kept = v8.deserialize(fs.readFileSync(file)) as { version: number; stamp: string; parts: SearchIndexParts };
    return kept.version === SNAPSHOT_VERSION && kept.stamp === stamp ? ownBuffers(kept.parts) : undefined;
  } catch {
    return undefined;
  }
}

function writeSnapshot(file: string, stamp: string, parts: SearchIndexParts) {
  const partial = `${file}.partial`;
  fs.writeFileSync(partial, v8.serialize({ version: SNAPSHOT_VERSION, stamp, parts }));
  fs.renameSync(partial, file);
}

/**
 * Keeps the search index current with the graph: rebuilt (in a worker, from an export of the
 * graph) once writes have gone quiet, and before any search that arrives after a write. A search
 * never reads an index older than the writes committed before it. With `snapshot`, a file: the
 * index kept there by persist() is taken at start when the graph's stamp is the one it was kept
 * for (a restart on an unchanged graph), instead of a first build.
 */
export function searchIndexBeside(
  graph: Pick<LadybugEngine, 'exportFile' | 'onWrite'> & Partial<Pick<LadybugEngine, 'stamp'>>,
  query: string,
  onError: (err: unknown) => void,
  snapshot?: string,
): LadybugSearchIndexHolder {
  let writes = 0;
  let built: { index: SearchIndex; writes: number } | undefined;
  let building: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const stamp = graph.stamp?.();
  const kept = snapshot && stamp ? readSnapshot(snapshot, stamp) : undefined;
  if (kept) built = { index: searchIndexFrom(kept), writes: 0 };
  // A kept index is for this stamp only: once the graph changes it must not be read again.
  else if (snapshot) fs.rmSync(snapshot, { force: true });

  const build = async () => {
    const at = writes;
    const file = await graph.exportFile(query);
    try {
      // A small export is built here: a worker with its own loader costs more memory than the build blocks.
      const small = fs.statSync(file).size < IN_THREAD_BYTES;
      built = { index: small ? searchIndexFrom(await buildSearchIndexFromFile(file)) : await buildInWorker(file), writes: at };
    } finally {
      fs.rmSync(file, { force: true });
    }
  };
  const current = async () => {
    const wanted = writes;
    while (!built || built.writes < wanted) {
      building ??= build().finally(() => (building = undefined));
      await building;
    }
    return built.index;
  };
  graph.onWrite(() => {
    writes += 1;
    clearTimeout(timer);
    timer = setTimeout(() => current().catch(onError), REBUILD_AFTER_MS);
    timer.unref();
  });
  return {
    current,
    ready: () => built !== undefined,
    persist() {
      const closedAs = graph.stamp?.();
      if (snapshot && closedAs && built && built.writes === writes) writeSnapshot(snapshot, closedAs, built.index.parts);
    },
  };
}
