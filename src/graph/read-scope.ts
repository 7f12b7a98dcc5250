import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The reads of one request. An engine that publishes snapshots (Neo4j's generations) pins the one
 * the request's first read saw, so every query of the request reads that snapshot.
 */
const scope = new AsyncLocalStorage<Map<string, unknown>>();
/** Scopes whose caller says when they end (a request until its response closes): what they pin is held. */
const running = new Set<Map<string, unknown>>();

/**
 * Runs `fn` (and what it awaits) as one request's reads. With `ends`, the scope's pins count as
 * held (heldPins) until the callback `ends` is given is called.
 */
export function inReadScope<T>(fn: () => T, ends?: (end: () => void) => void): T {
  const pins = new Map<string, unknown>();
  if (ends) {
    running.add(pins);
    ends(() => running.delete(pins));
  }
  return scope.run(pins, fn);
}

/** The value `key` has in this request's scope, taken from `get` the first time; outside a scope, `get()` each time. */
export function pinned<T>(key: string, get: () => T): T {
  const pins = scope.getStore();
  if (!pins) return get();
  if (!pins.has(key)) pins.set(key, get());
  return pins.get(key) as T;
}

/** The value `key` has in this request's scope, if it has one (a promise while it is being read). */
export function pinnedNow(key: string): unknown {
  return scope.getStore()?.get(key);
}

/** Sets `key` in this request's scope to `value`: the reads that follow see it; outside a scope, nothing. */
export function pin<T>(key: string, value: T): void {
  scope.getStore()?.set(key, value);
}

/** The values of `key` that scopes still running have pinned (a promise while a pin is being read). */
export function heldPins(key: string): unknown[] {
  const out: unknown[] = [];
  for (const pins of running) if (pins.has(key)) out.push(pins.get(key));
  return out;
}
