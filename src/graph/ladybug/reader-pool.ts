import { performance } from 'node:perf_hooks';
import { GraphError } from '../../errors.js';
import type { GateHolds, GateWork } from '../graph-port.js';

/**
 * The read connections: a read takes a free one or waits for one. `exclusive` holds new reads,
 * lets running ones finish and runs its work with no read in flight (a checkpoint, a reopen of the
 * database); with `slotsAfter`, reads then take those connections, whether the work succeeded or
 * not. `closed`: reads are refused. `holds` tells how long each kind of work held reads: from the
 * gate closing to its opening, the longest any read waited there.
 */
export function readerPool<S>(slots: S[], closed: () => boolean) {
  let idle = [...slots];
  const waiting: ((slot: S) => void)[] = [];
  let inFlight = 0;
  let drained: (() => void) | undefined;
  let gate: Promise<void> | undefined; // set while the database file is being swapped
  const holds: GateHolds = {};
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
    holds: () => holds,
    async exclusive<T>(kind: GateWork, work: () => Promise<T>, slotsAfter?: () => S[]): Promise<T> {
      while (gate) await gate;
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      const closedAt = performance.now();
      try {
        if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
        drained = undefined;
        try {
          return await work();
        } finally {
          if (slotsAfter) idle = [...slotsAfter()];
        }
      } finally {
        const seconds = (performance.now() - closedAt) / 1000;
        const h = (holds[kind] ??= { holds: 0, held_seconds: 0, longest_seconds: 0 });
        h.holds += 1;
        h.held_seconds += seconds;
        h.longest_seconds = Math.max(h.longest_seconds, seconds);
        gate = undefined;
        open();
      }
    },
  };
}
