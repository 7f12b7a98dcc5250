import { performance } from 'node:perf_hooks';

/**
 * When the API last began a lookup (a metered read a caller waits for): background work (roster
 * jobs) yields while they come in, so that callers keep their latency on a machine they share.
 */
export function lookupTraffic(windowMs = 1000) {
  let last = Number.NEGATIVE_INFINITY;
  return {
    seen: () => {
      last = performance.now();
    },
    /** A lookup began within the last `windowMs`. */
    busy: () => performance.now() - last < windowMs,
  };
}
export type LookupTraffic = ReturnType<typeof lookupTraffic>;
