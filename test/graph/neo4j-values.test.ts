import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import neo4j from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { normalizeNeo4jValue, toNeo4jParams } from '../../src/graph/neo4j/engine.js';

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
    const { csvText, NOTES_SEPARATOR } = await import('../../src/graph/bulk-file.js');
    const [D, Q] = ['\u001e', '\u0002'];
    const { text, lineBreaks } = csvText(['a', 'b', 'c'], [{ a: 'say "hi", ok', b: null, c: ['x', 'y'] }, { a: `line\nbreak${Q}`, b: 7, c: [] }, { a: `x${D}y`, b: '', c: null }]);
    expect(text).toBe(`a${D}b${D}c\nsay "hi", ok${D}${D}x${NOTES_SEPARATOR}y\n${Q}line\nbreak${Q}${Q}${Q}${D}7${D}\n${Q}x${D}y${Q}${D}${D}\n`);
    expect(lineBreaks).toBe(true);
  });

  it('when no value holds a line break then the file says so (it can be read in parallel)', async () => {
    const { csvText } = await import('../../src/graph/bulk-file.js');
    expect(csvText(['a'], [{ a: 'x\u001ey' }, { a: 'x\u0002' }, { a: null }]).lineBreaks).toBe(false);
    expect(csvText(['a'], [{ a: 'cr\ronly' }]).lineBreaks).toBe(true);
  });
});

describe('a LadybugDB bulk load', () => {
  it('when values hold the delimiter, the quote, line breaks and ordinary quotes then they come back as written (an empty string as null)', async () => {
    const { openLadybug } = await import('../../src/graph/ladybug/engine.js');
    const graph = await openLadybug({ path: ':memory:', bufferPoolMb: 256, connections: 1, queryTimeoutMs: 30000 });
    try {
      await graph.applySchema(['CREATE NODE TABLE T(id STRING PRIMARY KEY, v STRING, d DATE, l STRING[])']);
      const values = ['{"json": "doc", "a,b": 1}', 'two\nlines', 'cr\r\nlf', 'has\u001edelimiter', 'has\u0002quote', '', null, '\u0002', 'plain'];
      // Without line breaks the file goes through the parallel reader: many rows, so it splits.
      const parallel = Array.from({ length: 20000 }, (_, i) => values.filter((v) => !/[\r\n]/.test(v ?? ''))[i % 7]);
      const rows = [...values, ...parallel].map((v, i) => ({ id: `r${String(i).padStart(5, '0')}`, v, d: i % 2 ? '2026-11-01' : null, l: ['x', 'y "z"'] }));
      const load = '// @load\nCREATE (:T {id: id, v: v, d: d, l: string_split(l, $notes_separator)})';
      await graph.writeLarge(async (t) => {
        await t.bulk!(load, rows.slice(0, values.length), ['d']);
        await t.bulk!(load, rows.slice(values.length), ['d']);
      });
      const back = await graph.read('MATCH (t:T) RETURN t.id AS id, t.v AS v, t.d AS d, t.l AS l ORDER BY t.id');
      expect(back).toEqual(rows.map((r) => ({ ...r, v: r.v || null })));
    } finally {
      await graph.close();
    }
  });
});

describe('a LadybugDB refresh unit', () => {
  it('when one of its statements runs longer than the query timeout then it completes, where a read that long is stopped', async () => {
    const { openLadybug } = await import('../../src/graph/ladybug/engine.js');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-unit-timeout-'));
    const graph = await openLadybug({ path: path.join(dir, 'graph.lbug'), bufferPoolMb: 256, connections: 1, queryTimeoutMs: 100 });
    try {
      // 36 million rows: far longer than 100 ms on any machine, little memory.
      const slow = 'UNWIND range(1, 6000) AS a UNWIND range(1, 6000) AS b WITH a, b WHERE (a + b) % 7 = 0 RETURN count(*) AS n';
      await expect(graph.read(slow)).rejects.toThrow(/timeout|interrupt/i);
      const [row] = await graph.writeLarge((t) => t.run(slow));
      expect(Number(row.n)).toBe(5142857);
    } finally {
      await graph.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
