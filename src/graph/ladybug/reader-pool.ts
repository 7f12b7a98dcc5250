import { GraphError } from '../../errors.js';

/**
 * The read connections: a read takes a free one or waits for one. `swap` holds new reads, lets
 * running ones finish, runs `replace` (which reopens the database) and takes its connections,
 * whether it succeeded or not. `closed`: reads are refused.
 */
export function readerPool<S>(slots: S[], closed: () => boolean) {
  let idle = [...slots];
  const waiting: ((slot: S) => void)[] = [];
  let inFlight = 0;
  let drained: (() => void) | undefined;
  let gate: Promise<void> | undefined; // set while the database file is being swapped
  const acquire = async (): Promise<S> => {
    while (gate) await gate;
    if (closed()) throw new GraphError('graph engine is closed', true);
    inFlight += 1;
    return new Promise<S>((resolve) => {
      const slot = idle.pop();
      if (slot) resolve(slot);
      else waiting.push(resolve);
    });
  };
  const release = (slot: S) => {
    inFlight -= 1;
    const next = waiting.shift();
    if (next) next(slot);
    else idle.push(slot);
    if (inFlight === 0) drained?.();
  };
  return {
    /** How many slots there are, in use and idle, and reads waiting for one. */
    state: () => ({ max: slots.length, inUse: inFlight - waiting.length, idle: idle.length, waiting: waiting.length }),
    async use<T>(fn: (slot: S) => Promise<T>): Promise<T> {
      const slot = await acquire();
      try {
        return await fn(slot);
      } finally {
        release(slot);
      }
    },
    async swap(replace: () => Promise<void>, slotsAfter: () => S[]): Promise<void> {
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      try {
        if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
        drained = undefined;
        try {
          await replace();
        } finally {
          idle = [...slotsAfter()];
        }
      } finally {
        gate = undefined;
        open();
      }
    },
  };
}
