import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The reads of one request. An engine that publishes snapshots (Neo4j's generations) pins the one
 * the request's first read saw, so every query of the request reads that snapshot.
 */
const scope = new AsyncLocalStorage<Map<string, unknown>>();

/** Runs `fn` (and what it awaits) as one request's reads. */
export const inReadScope = <T>(fn: () => T): T => scope.run(new Map(), fn);

/** The value `key` has in this request's scope, taken from `get` the first time; outside a scope, `get()` each time. */
export function pinned<T>(key: string, get: () => T): T {
  const pins = scope.getStore();
  if (!pins) return get();
  if (!pins.has(key)) pins.set(key, get());
  return pins.get(key) as T;
}

/** Sets `key` in this request's scope to `value`: the reads that follow see it; outside a scope, nothing. */
export function pin<T>(key: string, value: T): void {
  scope.getStore()?.set(key, value);
}
