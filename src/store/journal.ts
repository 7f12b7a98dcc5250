import fs from 'node:fs';
import path from 'node:path';
import { StoreError } from '../errors.js';

/**
 * An append-only journal in front of a store whose writes are slow to round-trip (PGlite's WASM
 * in a worker): an append is done once its line is written to the journal file and synced to the
 * disk (one fdatasync per group: the appends of an event-loop turn), so an answer's record outlives
 * a power loss, and the store is fed from it in large groups behind. What a crash leaves in the journal is written to the store when
 * it opens again, so `write` must accept an item twice (an insert that ignores a known id). `write`
 * gets the items as one JSON array text, as they were journalled: serialized once.
 */
export interface Journal<T> {
  /** Resolves once the items are in the journal, and the store's backlog is within its bound. */
  append(items: T[]): Promise<void>;
  /** Resolves once everything appended before the call is in the store; rejects while the store fails. */
  flush(): Promise<void>;
  /** Writes the backlog to the store and closes the journal (what the store refuses stays for the next open). */
  close(): Promise<void>;
}

export interface JournalOptions {
  /** Items appended and not yet in the store beyond which appends wait: the memory bound. */
  maxBacklog?: number;
  /** Items per store write. */
  maxGroup?: number;
  /** How long appends gather before they go to the store (unless a flush or a full group asks sooner). */
  gatherMs?: number;
  /** How long a failed store write waits before it is tried again. */
  retryMs?: number;
  onError?: (err: unknown) => void;
}

// Segments are named by a counter; one is open for appends, older ones await the store.
const SEGMENT = /^(\d{12})\.jsonl$/;
const segmentName = (n: number) => `${String(n).padStart(12, '0')}.jsonl`;

/** A segment's lines, each an item's JSON; a line cut short by a crash or a failed write (its append never answered) is dropped. */
function readSegment(file: string): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => {
      try {
        return line !== '' && (JSON.parse(line), true);
      } catch {
        // A torn line: its append failed, so no answer rests on it.
        return false;
      }
    });
}

/**
 * Opens the journal in `dir`. Whatever an earlier run left there is stored first, behind: a
 * `flush` waits for it, so a read after the open sees it.
 */
export function openJournal<T>(dir: string, write: (json: string) => Promise<void>, options: JournalOptions = {}): Journal<T> {
  const { maxBacklog = 5_000, maxGroup = 2_000, gatherMs = 50, retryMs = 1_000, onError = () => {} } = options;
  fs.mkdirSync(dir, { recursive: true });
  /** Closed segments and their items, oldest first, waiting for the store. */
  const sealed = fs
    .readdirSync(dir)
    .filter((f) => SEGMENT.test(f))
    .sort()
    .map((file) => ({ segment: Number(SEGMENT.exec(file)![1]), items: readSegment(path.join(dir, file)) }));
  let segment = sealed.length ? sealed[sealed.length - 1].segment + 1 : 1;
  let fd = fs.openSync(path.join(dir, segmentName(segment)), 'a');

  /** This turn's appends: written together, once the turn's requests have added theirs. */
  let turn: { items: T[]; done: { resolve: () => void; reject: (err: unknown) => void }[] } | null = null;
  /** Journalled items' JSON not yet sealed for the store, all in the open segment. */
  let backlog: string[] = [];
  let appended = sealed.reduce((n, s) => n + s.items.length, 0);
  let stored = 0;
  let draining: Promise<void> | null = null;
  let closed = false;
  let gathering: NodeJS.Timeout | undefined;
  const waiters: { upTo: number; resolve: () => void; reject: (err: unknown) => void }[] = [];

  /** Resolves the waiters the store has caught up with; after a failed store write, fails the others. */
  function settle(failed?: unknown) {
    for (let i = waiters.length - 1; i >= 0; i--) {
      const w = waiters[i];
      if (stored >= w.upTo) w.resolve();
      else if (failed) w.reject(failed);
      else continue;
      waiters.splice(i, 1);
    }
  }
  /** Resolves once the store holds the first `upTo` items; fails with the next store write that fails before. */
  const until = (upTo: number) => new Promise<void>((resolve, reject) => (stored >= upTo ? resolve() : waiters.push({ upTo, resolve, reject })));
  /** The last write failed: part of it may be in the file, unterminated. */
  let torn = false;

  /**
   * Writes the turn's items and syncs them, on this thread: a write is a few microseconds and a
   * sync a fraction of a millisecond (0.22 ms median here), while the libuv pool an async call
   * would queue in is where LadybugDB runs its queries (milliseconds each).
   */
  function writeTurn() {
    if (!turn) return;
    const { items, done } = turn;
    turn = null;
    const lines = items.map((item) => JSON.stringify(item));
    // After a failed write, a newline ends whatever part of it reached the file.
    const text = Buffer.from(`${torn ? '\n' : ''}${lines.join('\n')}\n`);
    try {
      for (let at = 0; at < text.length; ) at += fs.writeSync(fd, text, at);
      fs.fdatasyncSync(fd);
    } catch (err) {
      // Unsynced lines may still reach the store at the next open: a record without its answer,
      // never an answer without its record (`write` takes an item twice).
      torn = true;
      const error = new StoreError(`the verification journal could not be written: ${(err as Error).message}`, { cause: err });
      for (const d of done) d.reject(error);
      return;
    }
    torn = false;
    backlog.push(...lines);
    appended += lines.length;
    // The store's cost is mostly per statement: fewer, larger writes leave more for requests.
    if (backlog.length >= maxGroup) startDrain();
    else gathering ??= setTimeout(startDrain, gatherMs);
    // Over the bound, callers wait for the store, as they would without the journal, and fail with
    // it: their items are journalled and will be stored, but no answer goes without the store.
    const allowed = until(appended - maxBacklog);
    for (const d of done) allowed.then(d.resolve, d.reject);
  }

  /** Moves the open segment's items to the sealed ones, and later appends to a new segment. */
  function seal() {
    if (!backlog.length) return;
    const next = fs.openSync(path.join(dir, segmentName(segment + 1)), 'a');
    fs.closeSync(fd);
    fd = next;
    sealed.push({ segment: segment++, items: backlog });
    backlog = [];
  }

  function startDrain() {
    clearTimeout(gathering);
    gathering = undefined;
    draining ??= drain()
      .catch((err) => onError(err))
      .finally(() => {
        draining = null;
        if (backlog.length >= maxGroup || (backlog.length && closed)) startDrain();
        else if (backlog.length) gathering ??= setTimeout(startDrain, gatherMs);
      });
  }

  /** Stores the sealed segments and what the open one holds now. */
  async function drain() {
    seal();
    for (;;) {
      const next = sealed[0];
      if (!next) return;
      while (next.items.length) {
        const group = next.items.slice(0, maxGroup);
        try {
          await write(`[${group.join(',')}]`);
        } catch (err) {
          onError(err);
          settle(err);
          if (closed) return;
          await new Promise((resolve) => setTimeout(resolve, retryMs).unref());
          continue;
        }
        next.items = next.items.slice(group.length);
        stored += group.length;
        settle();
      }
      fs.rmSync(path.join(dir, segmentName(next.segment)), { force: true });
      sealed.shift();
    }
  }
  if (sealed.length) startDrain();

  return {
    append(items) {
      if (closed) return Promise.reject(new StoreError('the verification journal is closed'));
      return new Promise<void>((resolve, reject) => {
        if (!turn) {
          turn = { items: [], done: [] };
          setImmediate(writeTurn);
        }
        turn.items.push(...items);
        turn.done.push({ resolve, reject });
      });
    },
    flush() {
      if (stored < appended) startDrain();
      return until(appended);
    },
    async close() {
      if (closed) return;
      closed = true;
      writeTurn();
      if (backlog.length) startDrain();
      while (draining) await draining;
      fs.closeSync(fd);
      if (stored === appended) fs.rmSync(path.join(dir, segmentName(segment)), { force: true });
    },
  };
}
