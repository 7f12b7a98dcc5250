import { describe, expect, it } from 'vitest';
import { groupCommit } from '../../src/modules/verifications/group-commit.js';

describe('group commit', () => {
  it('when callers write at once then their items go in one statement and each caller waits for its own', async () => {
    const statements: number[][] = [];
    const commit = groupCommit<number>(async (items) => void statements.push(items));
    await Promise.all([commit([1]), commit([2, 3]), commit([4])]);
    expect(statements).toEqual([[1, 2, 3, 4]]);
  });

  it('when writes arrive while one is in flight then they wait and go together in the next', async () => {
    const statements: number[][] = [];
    let release = () => {};
    const commit = groupCommit<number>(async (items) => {
      statements.push(items);
      if (statements.length === 1) await new Promise<void>((r) => (release = r));
    });
    const first = commit([1]);
    await new Promise((r) => setImmediate(r));
    const later = [commit([2]), commit([3])];
    let settled = false;
    void first.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(settled).toBe(false);
    release();
    await Promise.all([first, ...later]);
    expect(statements).toEqual([[1], [2, 3]]);
  });

  it('when a group fails then it is written caller by caller, and only the caller the store refuses fails', async () => {
    const stored: number[] = [];
    const commit = groupCommit<number>(async (items) => {
      if (items.includes(0)) throw new Error('refused');
      stored.push(...items);
    });
    const results = await Promise.allSettled([commit([1]), commit([0, 2]), commit([3])]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(stored).toEqual([1, 3]);
  });

  it('when a group is larger than the bound then it is cut into statements of at most the bound, callers never split', async () => {
    const statements: number[][] = [];
    const commit = groupCommit<number>(async (items) => void statements.push(items), 3);
    await Promise.all([commit([1, 2]), commit([3]), commit([4, 5]), commit([6, 7, 8, 9])]);
    expect(statements).toEqual([[1, 2, 3], [4, 5], [6, 7, 8, 9]]);
  });
});
