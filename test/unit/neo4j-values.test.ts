import neo4j from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { normalizeNeo4jValue, toNeo4jParams } from '../../src/graph/neo4j-engine.js';

describe('Neo4j parameter and result conversion', () => {
  it('when parameters hold whole numbers then they are sent as Integers, deeply; other values pass as they are', () => {
    const out = toNeo4jParams({ skip: 0, limit: 25, rows: [{ state: 'TX', rows: 3, share: 0.5 }], ids: ['a'], flag: true, none: null }) as Record<string, any>;
    expect(neo4j.isInt(out.skip)).toBe(true);
    expect(neo4j.isInt(out.limit)).toBe(true);
    expect(neo4j.isInt(out.rows[0].rows)).toBe(true);
    expect(out.rows[0].share).toBe(0.5);
    expect(out).toMatchObject({ ids: ['a'], flag: true, none: null });
  });

  it('when a parameter is a JS Date then it is refused: dates travel as ISO strings', () => {
    expect(() => toNeo4jParams({ at: new Date() })).toThrow(/ISO strings/);
  });

  it('when results hold Integers, Dates and DateTimes then they become numbers, YYYY-MM-DD and ISO 8601', () => {
    expect(normalizeNeo4jValue(neo4j.int(42))).toBe(42);
    expect(normalizeNeo4jValue(new neo4j.types.Date(2026, 3, 1))).toBe('2026-03-01'); // months count from 1
    expect(normalizeNeo4jValue(new neo4j.types.DateTime(2026, 11, 1, 6, 0, 0, 0, 0))).toBe('2026-11-01T06:00:00.000Z');
    expect(normalizeNeo4jValue([neo4j.int(1), 'x', null])).toEqual([1, 'x', null]);
  });
});

describe('the LadybugDB bulk-load file', () => {
  it('when values hold quotes, commas, newlines and nulls then each field is quoted and quotes doubled', async () => {
    const { csvText, NOTES_SEPARATOR } = await import('../../src/graph/ladybug-engine.js');
    const text = csvText(['a', 'b', 'c'], [{ a: 'say "hi", ok', b: null, c: ['x', 'y'] }, { a: 'line\nbreak', b: 7, c: [] }]);
    expect(text).toBe(`a,b,c\n"say ""hi"", ok",,"x${NOTES_SEPARATOR}y"\n"line\nbreak","7",""\n`);
  });
});
