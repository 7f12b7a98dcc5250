// The one search index of the service (search-index.ts), on either engine: built from an export
// of the graph (SearchSource), or first from the rows an offline load left (seedSearchIndex), in a
// worker thread past a small size, brought up to the graph a moment after this process writes and
// whenever the graph's version moves (another process published): the states whose rows moved are
// read again, or only their changed rows where the graph kept which they are (patched in); kept in
// a snapshot file between starts of the same graph.
import fs from 'node:fs';
import os from 'node:os';
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import { SearchIndexBuildingError } from '../errors.js';
import type { ChangedRows, SearchSource, SearchVersion } from '../graph/search-source-port.js';
import type { SearchIndex as Index, SearchIndexStatus } from './search-port.js';
import { buildSearchIndexFromFile, joinParts, mergeOverlay, overlaidRows, overlayBase, overlayFromFile, overlayFromPacked, ownBuffers, packSearchRows, searchIndexFrom, type OverlayBase, type SearchIndex as Built, type SearchIndexOverlay, type SearchIndexParts, type SearchIndexRow, type WorkerTask } from './search-index.js';

/** Exports below this size are indexed on the main thread (the demo data: 60 KB, a few ms)... */
const IN_THREAD_BYTES = 1 << 20;
/** ...and overlays and merges of states below this many rows. */
const IN_THREAD_ROWS = 20_000;
/** Quiet time after a write before the index is rebuilt unasked (an import commits many batches). */
const REBUILD_AFTER_MS = 250;
/** How often the graph's version is asked, so that another process's publish is taken up unasked. */
const POLL_MS = 1_000;
/** How long a search waits for an index holding every published write to its states before it answers 503. */
const WAIT_MS = 5_000;
const SNAPSHOT_VERSION = 5;
/** A build that failed is tried again after this long at the soonest. */
const RETRY_FAILED_MS = 1_000;
/** The least time the index of a generation a publish replaced is kept: a request may pin it a beat (2 s) after the publish. */
const KEEP_PREVIOUS_MS = 5_000;

/** Threads a first build uses: nothing is served before it ends, so it takes the cores (two at most: each holds a state's builders). */
const FIRST_BUILD_THREADS = Math.max(1, Math.min(2, os.availableParallelism()));

/** A worker thread (build-worker.ts) taking tasks as messages, until closed. */
interface TaskWorker {
  run<T>(task: WorkerTask): Promise<T>;
  close(): void;
}

function taskWorker(): TaskWorker {
  const worker = new Worker(new URL('./build-worker.mjs', import.meta.url), { resourceLimits: { maxYoungGenerationSizeMb: 128 } });
  const waiting = new Map<number, { resolve: (result: never) => void; reject: (err: Error) => void }>();
  let failed: Error | undefined;
  let ids = 0;
  const fail = (err: Error) => {
    failed ??= err;
    for (const w of waiting.values()) w.reject(failed);
    waiting.clear();
  };
  worker.on('message', (m: { id: number } & ({ result: never } | { error: string })) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if ('error' in m) w?.reject(new Error(`search index build failed: ${m.error}`));
    else w?.resolve(m.result);
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the search index worker stopped with code ${code}`)));
  return {
    run<T>(task: WorkerTask) {
      if (failed) return Promise.reject(failed);
      const id = ++ids;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (result: never) => void, reject });
        worker.postMessage({ id, task });
      });
    },
    close: () => void worker.terminate(),
  };
}

/** Runs `task` in a worker thread of its own: an index built from an export file, or a part of a build, or a pack. */
async function inWorker<T>(task: WorkerTask): Promise<T> {
  const worker = taskWorker();
  try {
    return await worker.run<T>(task);
  } finally {
    worker.close();
  }
}

/** A worker started at the first get(), and closed (if started) by close(). */
function lazyWorker() {
  let worker: TaskWorker | undefined;
  return { get: () => (worker ??= taskWorker()), close: () => worker?.close() };
}

/** A refresh's changed search rows packed (packSearchRows), off the event loop past a small size: a refresh may run inside a serving process. */
export function packSearchRowsOffThread(rows: SearchIndexRow[]): Promise<Uint8Array> {
  return rows.length < IN_THREAD_ROWS ? packSearchRows(rows) : inWorker<Uint8Array>({ task: 'pack', rows });
}

/** The index from an export file in `threads` worker threads: split by state in one, then its states built in turns, largest first. */
async function buildInWorkers(file: string, codes: SearchIndexParts['codes'], threads: number): Promise<SearchIndexParts> {
  const dir = fs.mkdtempSync(`${file}-parts-`);
  try {
    const parts = await inWorker<{ file: string; bytes: number }[]>({ task: 'split', file, dir });
    const turns = Array.from({ length: threads }, () => ({ files: [] as string[], bytes: 0 }));
    for (const part of parts) {
      const turn = turns.reduce((a, b) => (b.bytes < a.bytes ? b : a));
      turn.files.push(part.file);
      turn.bytes += part.bytes;
    }
    return joinParts(await Promise.all(turns.filter((t) => t.files.length).map((t) => inWorker<SearchIndexParts>({ task: 'parts', files: t.files, codes }))));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

interface Kept {
  version: SearchVersion;
  parts: SearchIndexParts;
}

/** What a snapshot file holds, or undefined when it is absent, unreadable or of another format. */
function readSnapshot(file: string): Kept | undefined {
  try {
    const kept = v8.deserialize(fs.readFileSync(file)) as Kept & { format: number };
    return kept.format === SNAPSHOT_VERSION ? { version: kept.version, parts: ownBuffers(kept.parts) } : undefined;
  } catch {
    return undefined;
  }
}

function writeSnapshot(file: string, kept: Kept) {
  const partial = `${file}.partial`;
  fs.writeFileSync(partial, v8.serialize({ format: SNAPSHOT_VERSION, ...kept }));
  fs.renameSync(partial, file);
}

/** Bytes the typed arrays and texts of the parts (or an overlay) hold (V8 keeps a text of Latin-1 characters alone at a byte each). */
function sizeOf(parts: Pick<SearchIndexParts | SearchIndexOverlay, 'states'>): number {
  let bytes = 0;
  const add = (x: unknown): void => {
    if (ArrayBuffer.isView(x)) bytes += x.byteLength;
    else if (typeof x === 'string') bytes += /[^\u0000-\u00ff]/.test(x) ? x.length * 2 : x.length;
    else if (Array.isArray(x)) x.forEach(add);
    else if (x && typeof x === 'object') Object.values(x).forEach(add);
  };
  add(parts.states);
  return bytes;
}

/**
 * Leaves the rows of a graph at `version` (an export file: SEARCH_INDEX_COLUMNS and
 * SEARCH_BROKER_COLUMNS rows of every state, as SearchSource.exportRows writes it) for the first
 * build of the index kept at `snapshot`: a process that starts on that version builds from them
 * instead of exporting (an offline load writes them from its own files). The file is moved.
 */
export function seedSearchIndex(snapshot: string, file: string, version: SearchVersion) {
  fs.rmSync(`${snapshot}.seed.json`, { force: true });
  fs.renameSync(file, `${snapshot}.seed`);
  fs.writeFileSync(`${snapshot}.seed.json.partial`, JSON.stringify(version));
  fs.renameSync(`${snapshot}.seed.json.partial`, `${snapshot}.seed.json`);
}

/** The seed left for the index kept at `snapshot` (seedSearchIndex), taken away: its rows are the caller's to use or remove. */
function takeSeed(snapshot: string): { file: string; version: SearchVersion } | undefined {
  const [file, stamp, taken] = [`${snapshot}.seed`, `${snapshot}.seed.json`, `${snapshot}.seed.taken`];
  // One a process killed while building from it left behind.
  fs.rmSync(taken, { force: true });
  try {
    if (!fs.existsSync(stamp)) return undefined;
    const version = JSON.parse(fs.readFileSync(stamp, 'utf8')) as SearchVersion;
    fs.renameSync(file, taken);
    return { file: taken, version };
  } catch {
    return undefined;
  } finally {
    fs.rmSync(stamp, { force: true });
  }
}

const sameVersion = (a: SearchVersion, b: SearchVersion) => a.graph === b.graph && JSON.stringify(a.states ?? null) === JSON.stringify(b.states ?? null);

/** The states whose rows moved between two versions; undefined when every state is to be read (no tokens, or none moved). */
function movedStates(from: SearchVersion, to: SearchVersion): string[] | undefined {
  if (!from.states || !to.states) return undefined;
  const moved = [...new Set([...Object.keys(from.states), ...Object.keys(to.states)])].filter((s) => from.states![s] !== to.states![s]);
  return moved.length ? moved : undefined;
}

/**
 * Keeps the search index current with the graph. A search reads an index holding every write
 * published before it, and the request's graph reads are pinned to the generation that index
 * shows: its ids, total and records are one snapshot. When the graph moves, only the states whose
 * rows moved are read again (where the engine names them), and searches of the other states are
 * served meanwhile; a search of a state being read again waits up to WAIT_MS, then answers 503.
 * With `snapshot`, a file: an index kept there is taken at start when it is for the graph's
 * version (a restart on an unchanged graph), instead of a first build.
 */
export function searchIndexOver(source: SearchSource, onError: (err: unknown) => void, snapshot?: string): Index & { close(): void } {
  interface Current {
    index: Built;
    version: SearchVersion;
    /** The number of the build that made it (0: read from the snapshot file). */
    seq: number;
    /** Built from the rows an offline load left (seedSearchIndex). */
    seeded?: boolean;
    bytes: number;
    /** Serving a patch's overlay (searchIndexFrom): the index it goes over, which a build starts from until the overlay is merged in. */
    under?: Current;
  }
  let built: Current | undefined;
  /** The index served before the generation last moved, kept while requests read that generation. */
  let previous: { at: number; current: Current } | undefined;
  const letGo = () => {
    if (previous && Date.now() - previous.at >= KEEP_PREVIOUS_MS && !source.holds?.(previous.current.version.generation!)) previous = undefined;
  };
  /** Serves `next` from now on, and says so to the graph when its generation moved. */
  const show = (next: Current) => {
    const moved = next.version.generation !== built?.version.generation;
    if (moved && built?.version.generation !== undefined) previous = { at: Date.now(), current: built };
    built = next;
    letGo();
    if (moved) source.serving?.(next.version.generation);
  };
  /** The kept index that shows generation `at`, if one does. */
  const indexAt = (at: number) => [built, previous?.current].find((c) => c?.version.generation === at);
  let building: Promise<void> | undefined;
  let started = 0;
  let buildStartedAt = 0;
  let lastBuild: SearchIndexStatus['last_build'];
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  // A build that fails because its graph closed under it, after the holder closed, is no failure to report.
  const report = (err: unknown) => void (closed || onError(err));
  let failure: { at: number; err: unknown } | undefined;
  let kept = snapshot ? readSnapshot(snapshot) : undefined;
  // A kept index is read once, at the first look at the graph's version; the file never serves twice.
  if (snapshot) fs.rmSync(snapshot, { force: true });
  // Rows an offline load left: the first build's, when they are of the version it reads.
  let seed = snapshot ? takeSeed(snapshot) : undefined;
  const seeded = (at: SearchVersion) => {
    const taken = seed;
    seed = undefined;
    if (taken && sameVersion(taken.version, at)) return taken.file;
    if (taken) fs.rmSync(taken.file, { force: true });
    return undefined;
  };

  /** Whether a build of `file` (or an overlay over, or a merge into, `rows` rows) is made here: a worker with its own loader costs more memory than a small build blocks. */
  const here = (file: string | undefined, rows: number) => (!file || fs.statSync(file).size < IN_THREAD_BYTES) && rows < IN_THREAD_ROWS;
  const rowsOf = (x: { states: [string, { n: number }][] }) => x.states.reduce((n, [, s]) => n + s.n, 0);
  const parts = async (file: string, codes: SearchIndexParts['codes']) => {
    if (here(file, 0)) return buildSearchIndexFromFile(file, codes);
    if (!built && FIRST_BUILD_THREADS > 1) return buildInWorkers(file, codes, FIRST_BUILD_THREADS);
    return inWorker<SearchIndexParts>({ task: 'file', file, codes });
  };
  /** The overlay of a patch's rows: from a file of them, or packed already by the refresh that wrote them. */
  const overlay = async (rows: ChangedRows, base: OverlayBase, worker: TaskWorker) => {
    const inThread = rowsOf(base) < IN_THREAD_ROWS && ('packed' in rows || here(rows.file, 0));
    if ('packed' in rows) return inThread ? overlayFromPacked(base, rows.ids, rows.packed) : worker.run<SearchIndexOverlay>({ task: 'overlay', base, changed: rows.ids, packed: rows.packed });
    return inThread ? overlayFromFile(base, rows.ids, rows.file) : worker.run<SearchIndexOverlay>({ task: 'overlay', base, changed: rows.ids, file: rows.file });
  };
  // The overlay is copied to the worker, not moved: it serves meanwhile.
  const merge = async (base: SearchIndexParts, over: SearchIndexOverlay, worker: TaskWorker) => (here(undefined, rowsOf(base)) ? mergeOverlay(base, over) : worker.run<SearchIndexParts>({ task: 'merge', base, overlay: over }));
  const build = async () => {
    // One worker for a patch's overlay and its merge, started before the patch's rows are read:
    // its start overlaps the read, and the merge runs on the code the overlay warmed (0048).
    const worker = lazyWorker();
    try {
      await buildWith(worker);
    } finally {
      worker.close();
    }
  };
  const buildWith = async (worker: ReturnType<typeof lazyWorker>) => {
    const seq = ++started;
    buildStartedAt = Date.now();
    for (;;) {
      // An overlay not merged in (its merge failed): the build goes from the index under it.
      const base = built?.under ?? built;
      const at = await source.version(true);
      if (base && base.version.graph === at.graph) {
        show({ ...base, seq });
        return;
      }
      const states = base && movedStates(base.version, at);
      const replaced = new Set(states);
      if (states && source.changedRows && rowsOf(overlayBase(base.index.parts, replaced)) >= IN_THREAD_ROWS) worker.get();
      // The moved states' changed rows alone, where the graph kept which they are since the index's version.
      const changes = states && source.changedRows ? await source.changedRows(base.version, at, states) : undefined;
      if (changes?.ids.length === 0) {
        // Publishes that changed none of the rows (a snapshot listed again): the same index, at the new version.
        if ('file' in changes) fs.rmSync(changes.file, { force: true });
        show({ ...base!, version: at, seq });
        lastBuild = { states: states!.length, rows: 0, changed: 0, ms: Date.now() - buildStartedAt };
        return;
      }
      const seedFile = !changes && !base ? seeded(at) : undefined;
      const file = changes ? ('file' in changes ? changes.file : undefined) : (seedFile ?? (await source.exportRows(at, states, { atOnce: !built })));
      if (!changes && !file) continue;
      // A first build holds the rows it read from here on (the export held them while it read).
      if (!base) source.serving?.(at.generation);
      const read = Date.now() - buildStartedAt;
      try {
        const codes = base?.index.parts.codes ?? [];
        const indexing = Date.now();
        if (changes) {
          // A patch: its rows served over the index first (a build of them alone), then merged in.
          const over = await overlay(changes, overlayBase(base!.index.parts, replaced), worker.get());
          show({ index: searchIndexFrom(base!.index.parts, over), version: at, seq, bytes: base!.bytes + sizeOf(over), under: base });
          lastBuild = { states: states!.length, rows: over.states.reduce((n, [, o]) => n + overlaidRows(o), 0), changed: changes.ids.length, prebuilt: 'packed' in changes, ms: Date.now() - buildStartedAt, read_ms: read, index_ms: Date.now() - indexing };
          const merging = Date.now();
          const fresh = await merge({ states: base!.index.parts.states.filter(([s]) => replaced.has(s)), codes }, over, worker.get());
          const merged: SearchIndexParts = { states: [...base!.index.parts.states.filter(([s]) => !replaced.has(s)), ...fresh.states], codes: fresh.codes };
          show({ index: searchIndexFrom(merged), version: at, seq, bytes: sizeOf(merged) });
          lastBuild = { ...lastBuild, merge_ms: Date.now() - merging };
          return;
        }
        const fresh = await parts(file!, codes);
        const indexed = Date.now() - indexing;
        const merged: SearchIndexParts = states ? { states: [...base!.index.parts.states.filter(([s]) => !replaced.has(s)), ...fresh.states], codes: fresh.codes } : fresh;
        show({ index: searchIndexFrom(merged), version: at, seq, bytes: sizeOf(merged), seeded: seedFile !== undefined });
        lastBuild = { states: states?.length ?? merged.states.length, rows: fresh.states.reduce((n, [, s]) => n + s.n, 0), ms: Date.now() - buildStartedAt, read_ms: read, index_ms: indexed };
        return;
      } finally {
        if (file) fs.rmSync(file, { force: true });
      }
    }
  };
  // A failed build is not started again by every search that arrives in the next moment.
  const rebuild = () => {
    if (!building && failure && Date.now() - failure.at < RETRY_FAILED_MS) return Promise.reject(failure.err);
    return (building ??= build()
      .then(
        () => void (failure = undefined),
        (err) => {
          failure = { at: Date.now(), err };
          throw err;
        },
      )
      .finally(() => (building = undefined)));
  };
  /**
   * The index to answer from, and the generation to read the graph at; `states`: those a search
   * reads; `at`: the generation the request's graph reads are pinned to already, if they are.
   */
  const fresh = async (states?: string[], at?: number): Promise<{ index: Built; generation?: number }> => {
    // An index behind the request's pin: the version is read afresh, so that the wait reaches it.
    const wanted = await source.version(at !== undefined && (built?.version.generation ?? -1) < at);
    // The request reads a generation the graph has moved on from: its kept index answers.
    const held = at !== undefined && wanted.generation !== at ? indexAt(at) : undefined;
    if (held) return { index: held.index, generation: at };
    if (kept) {
      if (sameVersion(kept.version, wanted)) show({ index: searchIndexFrom(kept.parts), version: kept.version, seq: 0, bytes: sizeOf(kept.parts) });
      kept = undefined;
    }
    // Read from the snapshot file: no first build takes the seed.
    if (built && seed) {
      fs.rmSync(seed.file, { force: true });
      seed = undefined;
    }
    const now = built;
    if (now && now.version.graph === wanted.graph) return { index: now.index, generation: now.version.generation };
    // States whose rows have not moved are the same at the wanted generation: served while the others are read.
    const from = now?.version.states;
    if (now && states && from && wanted.states && states.every((s) => from[s] === wanted.states![s])) {
      // One build, and one report of its failure, whatever the number of searches meanwhile.
      if (!building) rebuild().catch(report);
      return { index: now.index, generation: wanted.generation };
    }
    const after = started;
    // Done when the index shows the wanted version, or was built by a build started after the call.
    while (!built || (built.version.graph !== wanted.graph && built.seq <= after)) await rebuild();
    return { index: built.index, generation: built.version.generation };
  };
  const rebuildSoon = (ms: number) => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => fresh().catch(report), ms);
    timer.unref();
  };
  source.onWrite(() => rebuildSoon(REBUILD_AFTER_MS));
  // Another process's publish moves the version: take it up before a search asks. A failed build
  // (the first one included) is tried again unasked too, so readiness never waits for a search.
  const poll = setInterval(() => {
    letGo();
    if (building || closed) return;
    if (failure) {
      // An overlay whose merge failed is at the graph's version: only a build merges it.
      if (Date.now() - failure.at >= RETRY_FAILED_MS) built?.under ? rebuild().catch(report) : rebuildSoon(0);
    } else if (built) source.version().then((v) => v.graph !== built?.version.graph && rebuildSoon(0), report);
  }, POLL_MS);
  poll.unref();
  fresh().catch(report);

  return {
    async search(filters, skip, limit) {
      let wait: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        wait = setTimeout(() => {
          const left = (lastBuild?.ms ?? 1_000) - (Date.now() - buildStartedAt);
          reject(new SearchIndexBuildingError(Math.min(30, Math.max(1, Math.ceil(left / 1000)))));
        }, WAIT_MS);
      });
      const pinnedAt = async () => {
        // A pin whose read failed is replaced, as before pins were asked for.
        const at = await source.pinnedGeneration?.().catch(() => undefined);
        return { at, now: await fresh(filters.states, at) };
      };
      const { at, now } = await Promise.race([pinnedAt(), late]).finally(() => clearTimeout(wait));
      // A request's reads are one snapshot: never answered from another generation than its pin.
      const answer = at === undefined || now.generation === at ? now : indexAt(at);
      if (!answer) throw new SearchIndexBuildingError(1);
      const page = answer.index.search(filters, skip, limit);
      if (at === undefined) source.readAt(now.generation);
      return page;
    },
    current: async () => (await fresh()).index,
    ready: () => built !== undefined,
    status: () => ({
      status: built ? 'ready' : 'building',
      // Not while a patch's overlay is served and merged in: its searches are answered.
      catching_up: building !== undefined && !built?.under,
      generation: built?.version.generation,
      bytes: built?.bytes ?? 0,
      rows: built?.index.rows ?? 0,
      built_from: built && (built.seq === 0 ? 'snapshot' : built.seeded ? 'load' : 'export'),
      last_build: lastBuild,
    }),
    persist() {
      // An overlay's version is not that of the parts under it.
      if (!snapshot || !built || building || built.under) return;
      const version = source.closedVersion ? source.closedVersion(built.version) : built.version;
      if (version) writeSnapshot(snapshot, { version, parts: built.index.parts });
    },
    close() {
      closed = true;
      clearInterval(poll);
      clearTimeout(timer);
      previous = undefined;
      source.serving?.(undefined);
    },
  };
}
