import { describe, expect, it } from 'vitest';
import { validate, version } from 'uuid';
import { timeOrderedUuid } from '../../src/modules/verifications/time-ordered-id.js';

describe('record ids (UUIDv7 from a pooled random source)', () => {
  it('are valid version-7 UUIDs, unique, and increase call after call, across the pool refills', () => {
    const ids = Array.from({ length: 1_000 }, () => timeOrderedUuid());
    for (const id of ids) {
      expect(validate(id)).toBe(true);
      expect(version(id)).toBe(7);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('carry the time they were made in their first 48 bits', () => {
    const before = Date.now();
    const id = timeOrderedUuid();
    const ms = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    // Within one millisecond a counter that wraps may move the time a millisecond on.
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now() + 1);
  });
});
