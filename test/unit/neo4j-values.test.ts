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
  it('when values hold the delimiter, the quote, newlines and nulls then only those fields are quoted', async () => {
    const { csvText, NOTES_SEPARATOR } = await import('../../src/graph/ladybug-engine.js');
    const [D, Q] = ['\u001e', '\u0002'];
    const text = csvText(['a', 'b', 'c'], [{ a: 'say "hi", ok', b: null, c: ['x', 'y'] }, { a: `line\nbreak${Q}`, b: 7, c: [] }, { a: `x${D}y`, b: '', c: null }]);
    expect(text).toBe(`a${D}b${D}c\nsay "hi", ok${D}${D}x${NOTES_SEPARATOR}y\n${Q}line\nbreak${Q}${Q}${Q}${D}7${D}\n${Q}x${D}y${Q}${D}${D}\n`);
  });
});

describe('a LadybugDB bulk load', () => {
  it('when values hold the delimiter, the quote, line breaks and ordinary quotes then they come back as written (an empty string as null)', async () => {
    const { openLadybug } = await import('../../src/graph/ladybug-engine.js');
    const graph = await openLadybug({ path: ':memory:', bufferPoolMb: 256, connections: 1, queryTimeoutMs: 30000 });
    try {
      await graph.applySchema(['CREATE NODE TABLE T(id STRING PRIMARY KEY, v STRING, d DATE, l STRING[])']);
      const values = ['{"json": "doc", "a,b": 1}', 'two\nlines', 'cr\r\nlf', 'has\u001edelimiter', 'has\u0002quote', '', null, '\u0002', 'plain'];
      const rows = values.map((v, i) => ({ id: `r${i}`, v, d: i % 2 ? '2026-11-01' : null, l: ['x', 'y "z"'] }));
      await graph.writeLarge((t) => t.bulk!('// @load\nCREATE (:T {id: id, v: v, d: d, l: string_split(l, $notes_separator)})', rows, ['d']));
      const back = await graph.read('MATCH (t:T) RETURN t.id AS id, t.v AS v, t.d AS d, t.l AS l ORDER BY t.id');
      expect(back).toEqual(rows.map((r) => ({ ...r, v: r.v || null })).sort((a, b) => a.id.localeCompare(b.id)));
    } finally {
      await graph.close();
    }
  });
});
