/**
 * Group commit: writes that arrive while one is being committed wait and go together in the next
 * statement, so the store sees one write per round trip, not one per request. Each caller's promise
 * settles when its own items are committed, or fail. A group that fails is written again caller by
 * caller, so that one caller's items the store refuses never fail another's.
 */
export function groupCommit<T>(write: (items: T[]) => Promise<void>, maxItems = 2_000) {
  let queue: { items: T[]; resolve: () => void; reject: (err: unknown) => void }[] = [];
  let draining = false;

  async function drain() {
    while (queue.length) {
      let n = 0;
      let take = 0;
      while (take < queue.length && (take === 0 || n + queue[take].items.length <= maxItems)) n += queue[take++].items.length;
      const group = queue.slice(0, take);
      queue = queue.slice(take);
      try {
        await write(group.flatMap((g) => g.items));
        for (const g of group) g.resolve();
      } catch (err) {
        if (group.length === 1) group[0].reject(err);
        else for (const g of group) await write(g.items).then(g.resolve, g.reject);
      }
    }
    draining = false;
  }

  return (items: T[]): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      queue.push({ items, resolve, reject });
      if (draining) return;
      draining = true;
      // The first write waits for the requests of the same turn of the event loop.
      setImmediate(drain);
    });
}
