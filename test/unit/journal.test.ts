import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StoreError } from '../../src/errors.js';
import { openJournal } from '../../src/store/journal.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-journal-'));
  dirs.push(dir);
  return dir;
};
/** The items the journal's files hold now, in order. */
const onDisk = (dir: string) =>
  fs
    .readdirSync(dir)
    .sort()
    .flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as number));

/** A store whose writes wait for `release`, and record what they were given. */
function heldStore() {
  const stored: number[][] = [];
  const opened = () => {
    let resolve = () => {};
    const promise = new Promise<void>((r) => (resolve = r));
    return { promise, resolve };
  };
  let gate = opened();
  return {
    stored,
    write: async (json: string) => {
      await gate.promise;
      stored.push(JSON.parse(json) as number[]);
    },
    release: () => gate.resolve(),
      };
}

describe('the journal in front of a slow store', () => {
  it('when items are appended then each append is done once its items are in the file, before the store has them, and a flush waits for the store', async () => {
    const dir = tempDir();
    const store = heldStore();
    const journal = openJournal<number>(dir, store.write, { gatherMs: 1 });
    await Promise.all([journal.append([1]), journal.append([2, 3])]);
    expect(onDisk(dir)).toEqual([1, 2, 3]);
    expect(store.stored).toEqual([]);
    let flushed = false;
    const flush = journal.flush().then(() => (flushed = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(flushed).toBe(false);
    store.release();
    await flush;
    expect(store.stored.flat()).toEqual([1, 2, 3]);
    // Stored items leave the journal.
    expect(onDisk(dir)).toEqual([]);
    await journal.close();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('when a process dies with items only in the journal then the next open stores them, a torn last line aside, and a flush waits for that', async () => {
    const dir = tempDir();
    const store = heldStore();
    const first = openJournal<number>(dir, store.write, { gatherMs: 60_000 });
    await first.append([1, 2]);
    await first.append([3]);
    // The process dies here (never closed); its last write was cut short.
    const [last] = fs.readdirSync(dir).sort().slice(-1);
    fs.appendFileSync(path.join(dir, last), '{"cut');
    const replayed: number[][] = [];
    const second = openJournal<number>(dir, async (json) => void replayed.push(JSON.parse(json)));
    await second.flush();
    expect(replayed.flat()).toEqual([1, 2, 3]);
    await second.close();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('when the store fails then a flush fails with it, the items stay in the journal, and they are stored once it is back', async () => {
    const dir = tempDir();
    const stored: number[] = [];
    let failing = true;
    const errors: unknown[] = [];
    const journal = openJournal<number>(
      dir,
      async (json) => {
        if (failing) throw new StoreError('store down');
        stored.push(...(JSON.parse(json) as number[]));
      },
      { gatherMs: 1, retryMs: 5, onError: (err) => errors.push(err) },
    );
    await journal.append([1]);
    await expect(journal.flush()).rejects.toThrow('store down');
    expect(onDisk(dir)).toEqual([1]);
    expect(errors.length).toBeGreaterThan(0);
    failing = false;
    await journal.append([2]);
    await journal.flush();
    expect(stored).toEqual([1, 2]);
    await journal.close();
  });

  it('when the store falls behind by more than the bound then appends wait for it', async () => {
    const dir = tempDir();
    const store = heldStore();
    const journal = openJournal<number>(dir, store.write, { maxBacklog: 3, gatherMs: 1 });
    await journal.append([1, 2, 3]);
    let done = false;
    const over = journal.append([4, 5]).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 30));
    expect(done).toBe(false);
    expect(onDisk(dir)).toEqual([1, 2, 3, 4, 5]);
    store.release();
    await over;
    await journal.close();
    expect(store.stored.flat()).toEqual([1, 2, 3, 4, 5]);
  });

  it('when the journal closes then what it holds is stored first and appends are refused', async () => {
    const dir = tempDir();
    const stored: number[] = [];
    const journal = openJournal<number>(dir, async (json) => void stored.push(...(JSON.parse(json) as number[])), { gatherMs: 60_000 });
    await journal.append([7, 8]);
    await journal.close();
    expect(stored).toEqual([7, 8]);
    await expect(journal.append([9])).rejects.toThrow(StoreError);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('when the appends of a turn are written then one fdatasync makes them durable before any of them is answered; a sync that fails answers them with an error', async () => {
    const dir = tempDir();
    const { write, release } = heldStore();
    release();
    const journal = openJournal<number>(dir, write, { gatherMs: 5 });
    const synced: number[][] = [];
    const sync = vi.spyOn(fs, 'fdatasyncSync').mockImplementation(() => void synced.push(onDisk(dir)));
    try {
      const answered: number[] = [];
      // Three requests in one turn: one group, one sync, and every answer after it.
      await Promise.all([1, 2, 3].map((n) => journal.append([n]).then(() => answered.push(synced.length))));
      expect(sync).toHaveBeenCalledTimes(1);
      expect(synced[0]).toEqual([1, 2, 3]);
      expect(answered).toEqual([1, 1, 1]);

      sync.mockImplementation(() => {
        throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
      });
      await expect(journal.append([4])).rejects.toThrow(/could not be written: EIO/);
      sync.mockImplementation(() => undefined);
      await journal.append([5]);
      await journal.flush();
    } finally {
      sync.mockRestore();
      await journal.close();
    }
  });
});
