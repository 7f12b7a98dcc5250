import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importsOf, openGraph } from '../../src/compose/index.js';
import { concatExports, csvText, readBulkFile, splitBulkFile, splitBulkFileByFirstField } from '../../src/graph/bulk-file.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import type { SearchSource, SearchVersion } from '../../src/graph/search-source-port.js';
import { importFolder } from '../../src/ingest/load.js';
import type { SearchFilters } from '../../src/domain/search-filters.js';
import { searchOracle } from '../helpers/search-oracle.js';
import { buildSearchIndexFromFile, buildSearchIndexParts, joinParts, mergeOverlay, overlayBase, overlayFromFile, overlayFromPacked, packSearchRows, searchIndexFrom, unpackSearchRows, type SearchIndexParts, type SearchIndexRow } from '../../src/search/search-index.js';
import { packSearchRowsOffThread, searchIndexOver, seedSearchIndex } from '../../src/search/holder.js';
import type { SearchIndex, SearchIndexStatus } from '../../src/search/search-port.js';
import { DEMO_SEEDS, emptyGraph, files, fixture, testConfig } from '../helpers/graph.js';
import { folderWith } from '../helpers/source-files.js';

const NONE: SearchFilters = {
  states: [],
  nameTerms: [],
  firstNameTerms: [],
  lastNameTerms: [],
  businessNameTerms: [],
  cityTerms: [],
  brokerageTerms: [],
  today: '2026-11-22',
};

describe('the name-search index beside the embedded graph', () => {
  let graph: GraphAdapters;
  let holder: SearchIndex;
  const errors: unknown[] = [];
  let links: Record<string, string | null>[];
  let rows: Record<string, string | null>[];

  beforeAll(async () => {
    graph = await emptyGraph('ladybug');
    await importFolder(importsOf(graph, files), DEMO_SEEDS);
    await importFolder(importsOf(graph, files), fixture('small'));
    holder = searchIndexOver(graph.searchSource(), (err) => errors.push(err));
    links = (await graph.engine.read(
      'MATCH (s:LicenseCredential)-[r:SUPERVISES]->(c:LicenseCredential) RETURN c.state AS state, s.f_full AS full, s.f_business AS business, ' +
        'CAST(r.effective_from AS STRING) AS from_, CAST(r.effective_to AS STRING) AS to_ ' +
        'UNION ALL MATCH (c:LicenseCredential)-[:AFFILIATED_WITH]->(b:Brokerage) RETURN c.state AS state, b.f_name AS full, CAST(NULL AS STRING) AS business, CAST(NULL AS STRING) AS from_, CAST(NULL AS STRING) AS to_',
    )) as Record<string, string | null>[];
    rows = (await graph.engine.read(
      'MATCH (c:LicenseCredential) RETURN c.state AS state, c.license_number AS number, c.f_first AS first, c.f_last AS last, c.f_business AS business, c.f_city AS city, c.f_full AS full ORDER BY c.id',
    )) as Record<string, string | null>[];
  });
  afterAll(() => graph?.close());

  /** Filters drawn from the data: substrings of every text field at several offsets and lengths. */
  function cases(): { filters: SearchFilters; skip: number; limit: number }[] {
    const out: { filters: SearchFilters; skip: number; limit: number }[] = [];
    const pick = (text: string | null, i: number) => {
      if (!text) return undefined;
      const word = text.split(' ')[i % text.split(' ').length];
      const len = 1 + (i % 5);
      const from = i % Math.max(1, word.length - len + 1);
      return word.slice(from, from + len);
    };
    rows.forEach((r, i) => {
      if (i % 4) return;
      const states = i % 13 === 0 ? ['TX', 'FL', 'CA', 'NY'] : [r.state!];
      const page = { skip: (i % 3) * 10, limit: 1 + (i % 25) };
      const with_ = (f: Partial<SearchFilters>) => out.push({ filters: { ...NONE, states, ...f }, ...page });
      const last = pick(r.last, i);
      const first = pick(r.first, i);
      const business = pick(r.business, i);
      const city = pick(r.city, i);
      const name = pick(r.full, i + 1);
      if (last) with_({ lastNameTerms: [last] });
      if (first) with_({ firstNameTerms: [first], status: i % 2 ? 'active' : undefined });
      if (business) with_({ businessNameTerms: [business], licenseType: i % 3 ? 'brokerage' : undefined });
      if (city) with_({ cityTerms: [city] });
      if (name) with_({ nameTerms: [name, ...(last ? [last] : [])] });
      if (last && city) with_({ lastNameTerms: [last], cityTerms: [city], status: 'active' });
      with_({ licenseNumberPrefix: r.number!.slice(0, 1 + (i % 4)) });
      with_({ status: (['active', 'inactive', 'expired', 'suspended'] as const)[i % 4] });
    });
    // The brokerage filter: terms from supervisors' and brokerages' names, on the days around each link's dates.
    const dayBefore = (d: string) => new Date(Date.parse(d) - 86_400_000).toISOString().slice(0, 10);
    links.forEach((l, i) => {
      const term = pick(l.business ?? l.full, i) ?? pick(l.full, i);
      if (!term) return;
      const days = [l.from_, l.from_ && dayBefore(l.from_), l.to_, l.to_ && dayBefore(l.to_), '2026-11-22'].filter((d): d is string => !!d);
      for (const today of days) {
        out.push({ filters: { ...NONE, states: [l.state!], brokerageTerms: [term], today }, skip: 0, limit: 50 });
        out.push({ filters: { ...NONE, states: [l.state!, 'TX'], brokerageTerms: [term, term.slice(0, 1)], status: i % 2 ? 'active' : undefined, today }, skip: i % 2, limit: 5 });
      }
    });
    out.push({ filters: { ...NONE, states: ['TX'] }, skip: 0, limit: 100 });
    out.push({ filters: { ...NONE, states: ['TX', 'FL'], lastNameTerms: ['zzzz'] }, skip: 0, limit: 10 });
    out.push({ filters: { ...NONE, states: ['ZZ'], nameTerms: ['a'] }, skip: 0, limit: 10 });
    out.push({ filters: { ...NONE, states: ['FL'], nameTerms: ['a', 'e'], status: 'active' }, skip: 5, limit: 20 });
    return out;
  }

  it('when every kind of filter is searched then the index gives the ids, order and totals a scan of every credential gives', async () => {
    const all = cases();
    const oracle = await searchOracle(graph.engine);
    expect(all.length).toBeGreaterThan(300);
    let nonEmpty = 0;
    /** Brokerage totals by everything but the day: the days around a link's dates must change some. */
    const byDay = new Map<string, Set<number>>();
    for (const c of all) {
      const expected = oracle.search(c.filters, c.skip, c.limit);
      const index = (await holder.current()).search(c.filters, c.skip, c.limit);
      expect(index, JSON.stringify(c)).toEqual(expected);
      if (expected.ids.length) nonEmpty += 1;
      if (c.filters.brokerageTerms.length) {
        const key = JSON.stringify({ ...c, filters: { ...c.filters, today: '' } });
        byDay.set(key, (byDay.get(key) ?? new Set()).add(expected.total));
      }
    }
    // The cases must exercise matches, not only misses, and the brokerage filter's days.
    expect(nonEmpty).toBeGreaterThan(all.length / 2);
    expect(byDay.size).toBeGreaterThan(50);
    expect([...byDay.values()].filter((totals) => totals.size > 1).length).toBeGreaterThan(10);
    expect(errors).toEqual([]);
  });

  it('when a link ends then the brokerage filter matches its affiliate before that day and not from it', async () => {
    // 300001-B (OLD BROKER) sponsored 763828-SA until 2026-07-31.
    const filters = (today: string) => ({ ...NONE, states: ['TX'], brokerageTerms: ['old'], today });
    const before = await holder.search(filters('2026-07-30'), 0, 10);
    expect(before.total).toBeGreaterThan(0);
    expect(before).toEqual((await searchOracle(graph.engine)).search(filters('2026-07-30'), 0, 10));
    const after = await holder.search(filters('2026-07-31'), 0, 10);
    expect(after.total).toBeLessThan(before.total);
    expect(after).toEqual((await searchOracle(graph.engine)).search(filters('2026-07-31'), 0, 10));
  });

  it('when the first build fails then it is built again with no search asking, and the failure is reported once', async () => {
    const source = graph.searchSource();
    let failures = 0;
    const failing = {
      ...source,
      exportRows: async (...args: Parameters<typeof source.exportRows>) => {
        if (failures++ === 0) throw new Error('the buffer pool is full');
        return source.exportRows(...args);
      },
    };
    const reported: unknown[] = [];
    const retried = searchIndexOver(failing, (err) => reported.push(err));
    try {
      for (let i = 0; i < 100 && !retried.ready(); i++) await new Promise((r) => setTimeout(r, 100));
      expect(retried.status()).toMatchObject({ status: 'ready', built_from: 'export' });
      expect(reported.map((e) => (e as Error).message)).toEqual(['the buffer pool is full']);
    } finally {
      retried.close();
    }
  });

  it('when a holder is closed while it builds then the failure of that build (its graph closing) is not reported', async () => {
    const source = graph.searchSource();
    let fail!: (err: Error) => void;
    let exporting!: () => void;
    const started = new Promise<void>((resolve) => (exporting = resolve));
    const stalled = { ...source, exportRows: () => (exporting(), new Promise<string>((_, reject) => (fail = reject))) };
    const reported: unknown[] = [];
    const closing = searchIndexOver(stalled, (err) => reported.push(err));
    await started;
    closing.close();
    fail(new Error('graph engine is closed'));
    await new Promise((r) => setTimeout(r, 50));
    expect(reported).toEqual([]);
    expect(closing.status()).toMatchObject({ status: 'building' });
  });

  it('when an import renames a credential then the next search finds the new name and not the old', async () => {
    const header = fs.readFileSync(path.join(fixture('small'), 'credentials.csv'), 'utf8').split('\n')[0];
    const dir = folderWith({
      'credentials.csv': `${header}\nTX,200001-B,broker,Broker Individual,Active,,person,DANA ZYXWVUT,DANA,,ZYXWVUT,,,1995-02-01,2027-02-28,mailing,2 Oak Ave,,Austin,,TX,78702,,,k-d1,fixture,2026-11-02,2026-11-02T06:00:00Z,\n`,
    });
    try {
      const before = (await holder.search({ ...NONE, states: ['TX'], lastNameTerms: ['quinn'] }, 0, 10))!;
      expect(before.total).toBeGreaterThan(0);
      await importFolder(importsOf(graph, files), dir);
      expect(await holder.search({ ...NONE, states: ['TX'], lastNameTerms: ['zyxw'] }, 0, 10)).toEqual({ ids: [expect.any(String)], total: 1 });
      const after = (await holder.search({ ...NONE, states: ['TX'], lastNameTerms: ['quinn'] }, 0, 10))!;
      expect(after.total).toBe(before.total - 1);
      expect(after).toEqual((await searchOracle(graph.engine)).search({ ...NONE, states: ['TX'], lastNameTerms: ['quinn'] }, 0, 10));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the search index over many rows', () => {
  it('when a term matches few or many words, one after another, then each page and total are what a scan of every row gives', async () => {
    // 20,000 rows of one state with last names from a vocabulary of 1,500 words: a term's words
    // hold a few rows (gathered and sorted) or thousands (marked), and searches share the marks.
    const letters = 'abcdefghij';
    const word = (i: number) => `${letters[i % 10]}${letters[Math.floor(i / 10) % 10]}${letters[Math.floor(i / 100) % 10]}x${i}`;
    const rows: SearchIndexRow[] = Array.from({ length: 20_000 }, (_, i) => {
      const last = word((i * 7919) % 1500);
      const status = i % 3 === 0 ? 'inactive' : 'active';
      return ['TX', `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, `${last} ${String(i).padStart(6, '0')}`, `L${i}`, status, 'salesperson', last, null, last, null, null];
    });
    const index = searchIndexFrom(await buildSearchIndexParts((async function* () { yield rows; })()));
    const scan = (term: string, status?: string) => {
      const hits = rows.filter((r) => r[8]!.includes(term) && (status === undefined || r[4] === status)).sort((a, b) => (a[2]! < b[2]! ? -1 : 1));
      return { ids: hits.slice(10, 35).map((r) => r[1]), total: hits.length };
    };
    // x1: every word from x1 on (most rows); a, ab, abc: a tenth, a hundredth, a thousandth of them.
    for (const [term, status] of [['x1', undefined], ['abc', undefined], ['a', 'active'], ['x149', undefined], ['ab', 'inactive'], ['x1', 'active'], ['abc', undefined]] as const) {
      const found = index.search({ ...NONE, states: ['TX'], lastNameTerms: [term], status }, 10, 25);
      expect(found, `${term} ${status ?? ''}`).toEqual(scan(term, status));
    }
  });
});

describe('the search index\'s result order', () => {
  it('when sort keys share long prefixes, are prefixes of one another, are empty or hold characters beyond Latin-1 then a listing is in code-unit order', async () => {
    const stems = ['', 'smith', 'smith john', 'smith john a', 'smíth', 'şmith', 'ωmega', 'ωmegα', '中村', '中村 一', 'a\u0001', 'zz'];
    // Arrival order shuffled; every stem shared by tens of rows, so that ranges past a few dozen
    // rows agree on long prefixes and on characters beyond Latin-1 at the same place.
    const rows: SearchIndexRow[] = Array.from({ length: 3_000 }, (_, i) => {
      const j = (i * 7919) % 3_000;
      const stem = stems[j % stems.length];
      const key = j % 5 === 0 ? stem : `${stem}${String.fromCharCode(0x3b1 + (j % 4))}${j % 3 ? 'x'.repeat(j % 7) : ''}\u0001L${j}`;
      return ['TX', `00000000-0000-4000-8000-${String(j).padStart(12, '0')}`, key, `L${j}`, 'active', 'salesperson', 'ann lee', null, 'lee', null, null];
    });
    const index = searchIndexFrom(await buildSearchIndexParts((async function* () { yield rows; })()));
    const byCodeUnit = [...rows].sort((a, b) => (a[2]! < b[2]! ? -1 : a[2]! > b[2]! ? 1 : rows.indexOf(a) - rows.indexOf(b)));
    const listed = index.search({ ...NONE, states: ['TX'] }, 0, 3_000);
    expect(listed.total).toBe(3_000);
    expect(listed.ids).toEqual(byCodeUnit.map((r) => r[1]));
  });

  it('when a credential row\'s id is not a UUID then the build fails saying so; a brokerage row\'s matches no credential', async () => {
    const row: SearchIndexRow = ['TX', 'not-a-uuid', 'lee\u0001L1', 'L1', 'active', 'salesperson', 'ann lee', null, 'lee', null, null];
    await expect(buildSearchIndexParts((async function* () { yield [row]; })())).rejects.toThrow("a search row's id is not a UUID: not-a-uuid");
    const id = '00000000-0000-4000-8000-000000000001';
    const rows: SearchIndexRow[] = [
      ['TX', 'not-a-uuid', '2020-01-01', null, 'acme realty'],
      ['TX', id, 'lee\u0001L1', 'L1', 'active', 'salesperson', 'ann lee', null, 'lee', null, null],
      ['TX', id.toUpperCase(), '2020-01-01', null, 'zenith realty'],
    ];
    const index = searchIndexFrom(await buildSearchIndexParts((async function* () { yield rows; })()));
    const brokered = (term: string) => index.search({ ...NONE, states: ['TX'], brokerageTerms: [term], today: '2026-01-01' }, 0, 10);
    expect(brokered('acme')).toEqual({ ids: [], total: 0 });
    expect(brokered('zenith')).toEqual({ ids: [id], total: 1 });
  });
});

describe('the search index built from an export file a state at a time', () => {
  it('when the states\' rows are interleaved and a name holds a line break then every search answers as from one build of all rows', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-index-file-'));
    try {
      const names = ['ann lee', 'bo\nlee', 'cy lee', 'di ray', 'ed ray'];
      // More than one 4 MB read of the file: a state's part is written to again and again.
      const rows: SearchIndexRow[] = Array.from({ length: 60_000 }, (_, i) => {
        const last = names[i % 5];
        return [['TX', 'FL', 'CA'][i % 3], `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, `${last} ${String(i).padStart(6, '0')}`, `L${i}`, i % 4 ? 'active' : 'inactive', i % 7 ? 'salesperson' : 'broker', last, null, last, null, null];
      });
      // The engine's export: csvText's dialect without its header line.
      const columns = rows[0].map((_, i) => `c${i}`);
      const file = path.join(dir, 'export.csv');
      fs.writeFileSync(file, csvText(columns, rows.map((r) => Object.fromEntries(r.map((v, i) => [`c${i}`, v])))).text.split('\n').slice(1).join('\n'));
      expect(fs.statSync(file).size).toBeGreaterThan(1 << 22);
      const byFile = searchIndexFrom(await buildSearchIndexFromFile(file));
      const whole = searchIndexFrom(await buildSearchIndexParts((async function* () { yield rows; })()));
      for (const state of ['TX', 'FL', 'CA']) {
        for (const [term, status, licenseType] of [['lee', undefined, undefined], ['bo', 'active', undefined], ['ray', 'inactive', 'broker'], ['zz', undefined, undefined]] as const) {
          const filters = { ...NONE, states: [state], lastNameTerms: [term], status, licenseType };
          const found = byFile.search(filters, 5, 25);
          expect(found, `${state} ${term}`).toEqual(whole.search(filters, 5, 25));
          if (term !== 'zz') expect(found!.total).toBeGreaterThan(0);
        }
      }
      // The split files are gone with the build.
      expect(fs.readdirSync(dir)).toEqual(['export.csv']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the search index built in parts', () => {
  // Statuses and types first seen in another order in each state, and one only in CA: each part numbers them its own way.
  const rows: SearchIndexRow[] = Array.from({ length: 60_000 }, (_, i) => {
    const state = ['TX', 'FL', 'CA'][i % 3];
    const status = state === 'CA' && i % 11 === 0 ? 'expired' : (i + (state === 'TX' ? 1 : 0)) % 4 ? 'active' : 'inactive';
    const last = ['ann lee', 'bo lee', 'cy ray'][i % 7 % 3];
    return [state, `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, `${last} ${String(i).padStart(6, '0')}`, `L${i}`, status, (i + (state === 'FL' ? 3 : 0)) % 7 ? 'salesperson' : 'broker', last, null, last, null, null];
  });
  const searches = (index: Pick<ReturnType<typeof searchIndexFrom>, 'search'>) =>
    ['TX', 'FL', 'CA'].flatMap((state) =>
      [['lee', undefined, undefined], ['lee', 'active', 'broker'], ['ray', 'inactive', undefined], ['lee', 'expired', 'salesperson']].map(([term, status, licenseType]) =>
        index.search({ ...NONE, states: [state], lastNameTerms: [term!], status, licenseType }, 3, 10),
      ),
    );
  const whole = async () => searchIndexFrom(await buildSearchIndexParts((async function* () { yield rows; })()));

  it('when states are built apart, each part numbering statuses and types its own way, then the joined parts answer every search as one build', async () => {
    const part = (states: string[]) => buildSearchIndexParts((async function* () { yield rows.filter((r) => states.includes(r[0]!)); })());
    const joined = joinParts([await part(['TX']), await part(['FL', 'CA'])]);
    expect(joined.states.map(([s]) => s).sort()).toEqual(['CA', 'FL', 'TX']);
    const found = searches(searchIndexFrom(joined));
    expect(found).toEqual(searches(await whole()));
    expect(found.filter((f) => f!.total > 0).length).toBeGreaterThan(8);
  });

  it('when a first build reads a large export then it is built in worker threads and answers every search as one build', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-index-parts-'));
    try {
      const columns = rows[0].map((_, i) => `c${i}`);
      const file = path.join(dir, 'export.csv');
      fs.writeFileSync(file, csvText(columns, rows.map((r) => Object.fromEntries(r.map((v, i) => [`c${i}`, v])))).text.split('\n').slice(1).join('\n'));
      let exports = 0;
      const source: SearchSource = {
        version: async () => ({ graph: 'one' }),
        exportRows: async () => {
          const copy = path.join(dir, `export-${++exports}.csv`);
          fs.copyFileSync(file, copy);
          return copy;
        },
        onWrite: () => undefined,
        readAt: () => undefined,
      };
      const holder = searchIndexOver(source, (err) => expect.fail(String(err)));
      try {
        expect(searches(await holder.current())).toEqual(searches(await whole()));
        expect(holder.status()).toMatchObject({ status: 'ready', rows: 60_000, built_from: 'export' });
      } finally {
        holder.close();
      }
      // Its export and the parts split from it are gone with the build.
      expect(fs.readdirSync(dir)).toEqual(['export.csv']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  it.each([['a file of them', false], ["the refresh's pack of them", true]])('when a publish changes a large state, its rows given as %s, then they are served over the index as soon as they are indexed, then merged in, each answering every search as a build of the new rows', async (_, packed) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-index-overlay-'));
    const text = (list: SearchIndexRow[]) => csvText(list[0].map((_, i) => `c${i}`), list.map((r) => Object.fromEntries(r.map((v, i) => [`c${i}`, v])))).text.split('\n').slice(1).join('\n');
    // Every tenth TX row renamed (it moves to the end), every hundredth gone.
    const changedAt = (i: number) => rows[i][0] === 'TX' && i % 10 === 0;
    const after = rows.flatMap((r, i): SearchIndexRow[] => (!changedAt(i) ? [r] : i % 100 === 0 ? [] : [[r[0], r[1], `zed ${String(i).padStart(6, '0')}`, r[3], r[4], r[5], 'zed', null, 'zed', null, null]]));
    const changed = rows.filter((_, i) => changedAt(i));
    let version: SearchVersion = { graph: 'one', generation: 1, states: { TX: '1', FL: '1', CA: '1' } };
    const overlaid: { found: Promise<unknown>[]; status?: SearchIndexStatus } = { found: [] };
    const cases: Partial<SearchFilters>[] = [{}, { lastNameTerms: ['zed'] }, { lastNameTerms: ['lee'], status: 'active' }, { nameTerms: ['ray'] }];
    try {
      const source: SearchSource = {
        version: async () => version,
        exportRows: async () => {
          const file = path.join(dir, 'export.csv');
          fs.writeFileSync(file, text(rows));
          return file;
        },
        changedRows: async (_from, _to, states) => {
          expect(states).toEqual(['TX']);
          const file = path.join(dir, 'changed.csv');
          const ids = new Set(changed.map((r) => r[1]));
          if (packed) return { ids: [...ids] as string[], packed: [await packSearchRowsOffThread(after.filter((r) => ids.has(r[1])))] };
          fs.writeFileSync(file, text(after.filter((r) => ids.has(r[1]))));
          return { ids: [...ids] as string[], file };
        },
        onWrite: () => undefined,
        readAt: () => undefined,
        // The moment the new generation is shown: searches made now are answered before the merge ends.
        serving: (g) => {
          if (g !== 2) return;
          for (const c of cases) overlaid.found.push(holder.search({ ...NONE, states: ['TX'], ...c }, 5, 20));
          queueMicrotask(() => (overlaid.status = holder.status()));
        },
      };
      const holder = searchIndexOver(source, (err) => expect.fail(String(err)));
      try {
        await holder.current();
        version = { graph: 'two', generation: 2, states: { TX: '2', FL: '1', CA: '1' } };
        const current = await holder.current();
        const rebuilt = searchIndexFrom(await buildSearchIndexParts((async function* () { yield after; })()));
        const expected = cases.map((c) => rebuilt.search({ ...NONE, states: ['TX'], ...c }, 5, 20));
        expect(expected[1].total).toBe(1800);
        expect(await Promise.all(overlaid.found)).toEqual(expected);
        expect(overlaid.status).toMatchObject({ generation: 2, rows: after.length, catching_up: false, last_build: { states: 1, rows: 19_800, changed: 2000, prebuilt: packed } });
        expect(overlaid.status!.last_build!.merge_ms).toBeUndefined();
        expect(cases.map((c) => current.search({ ...NONE, states: ['TX'], ...c }, 5, 20))).toEqual(expected);
        expect(holder.status()).toMatchObject({ generation: 2, rows: after.length, catching_up: false, last_build: { changed: 2000, merge_ms: expect.any(Number) } });
      } finally {
        holder.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the search index patched with the rows a publish changed', () => {
  it('when a refresh packs many changed rows then its worker thread gives the parts packed here, each typed array its own', async () => {
    const rows: SearchIndexRow[] = Array.from({ length: 25_000 }, (_, i) => ['FL', `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, `name${i % 97} x\u0001N${i}`, `N${i}`, i % 3 ? 'active' : 'inactive', 'sales associate', `x name${i % 97}`, 'x', `name${i % 97}`, null, i % 2 ? 'tampa' : null]);
    const [inWorker, here] = [unpackSearchRows(await packSearchRowsOffThread(rows)), unpackSearchRows(await packSearchRows(rows))];
    expect(inWorker).toEqual(here);
    expect(here.states[0][1].n).toBe(25_000);
    for (const a of [here.states[0][1].ids, here.states[0][1].status, here.states[0][1].fields.last.postings]) expect(a.byteLength).toBe(a.buffer.byteLength);
  });

  it('when renamed, restated, removed, added and relinked rows are patched in, or served over the index before they are (from a file of them or from packs of them), then every search answers as a build of the new rows does', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-index-patch-'));
    try {
      // Ids are told apart by their first four bytes, then whole: half share them (00000000), and
      // rows 4k + 1 and 4k + 3 share theirs, so a changed row's neighbour is compared and kept.
      const head = (i: number) => (i % 2 === 0 ? 0 : i % 4 === 1 ? i : i - 2);
      const id = (i: number) => `${head(i).toString(16).padStart(8, '0')}-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const lasts = ['lee', 'ray', 'moreno', 'smith', 'nguyen', 'ólafsson', 'ann-marie'];
      const row = (i: number, state: string, last: string, status: string): SearchIndexRow => {
        const first = ['ann', 'bo', 'cy', 'di'][i % 4];
        const business = i % 9 === 0 ? `${last} realty group` : null;
        // Keys as the import writes them (names, then the licence number), and a few of another form.
        const key = i % 11 ? `${last} ${first}\u0001L${i}` : `${last} ${first} ${i}`;
        return [state, id(i), key, `L${i}`, status, i % 9 === 0 ? 'brokerage' : 'salesperson', `${first} ${last}`, first, last, business, ['miami', 'austin', 'el paso'][i % 3]];
      };
      const broker = (i: number, from: string | null, to: string | null, names: string): SearchIndexRow => [i >= 2000 && i < 3000 ? 'FL' : 'TX', id(i), from, to, names];
      const before = new Map<number, SearchIndexRow[]>();
      for (let i = 0; i < 3000; i++) {
        const state = i < 2000 ? 'TX' : 'FL';
        const rows = [row(i, state, lasts[i % 7], i % 5 ? 'active' : 'inactive')];
        if (i % 3 === 0) rows.push(broker(i, '2020-01-01', i % 6 === 0 ? '2026-06-30' : null, `broker ${i % 11} realty`));
        if (i % 10 === 0) rows.push(broker(i, null, null, `brokerage ${i % 4}`));
        before.set(i, rows);
      }
      // The publish: renames that move rows, new statuses, rows that leave, new rows, relinked
      // rows, and a row listed as changed that did not change; all in TX.
      const after = new Map(before);
      const changed: number[] = [];
      for (let i = 0; i < 2000; i += 37) {
        changed.push(i);
        if (i % 5 === 0) after.delete(i);
        else if (i % 5 === 1) after.set(i, [row(i, 'TX', 'zephyr', 'active')]);
        else if (i % 5 === 2) after.set(i, [row(i, 'TX', lasts[i % 7], 'suspended'), broker(i, '2026-11-01', null, 'new broker realty')]);
        else if (i % 5 === 3) after.set(i, before.get(i)!.map((r) => (r.length === 5 && r[3] === null && r[2] ? [r[0], r[1], r[2], '2026-10-31', r[4]] : r)));
      }
      for (let i = 5000; i < 5040; i++) {
        changed.push(i);
        after.set(i, [row(i, 'TX', lasts[i % 7], 'active'), broker(i, '2026-01-15', null, 'broker 1 realty')]);
      }
      // A state the index did not hold.
      for (let i = 6000; i < 6005; i++) {
        changed.push(i);
        after.set(i, [row(i, 'CA', lasts[i % 7], 'active')]);
      }
      const all = (m: Map<number, SearchIndexRow[]>) => [...m.values()].flat();
      const base = await buildSearchIndexParts((async function* () { yield all(before); })());
      // The export file of the changed rows, rows then brokerage rows, as the engine writes it.
      const file = path.join(dir, 'export.csv');
      const fresh = changed.flatMap((i) => after.get(i) ?? []);
      const text = (rows: SearchIndexRow[]) => (rows.length ? csvText(rows[0].map((_, k) => `c${k}`), rows.map((r) => Object.fromEntries(r.map((v, k) => [`c${k}`, v])))).text.split('\n').slice(1).join('\n') : '');
      fs.writeFileSync(file, text(fresh.filter((r) => r.length === 11)) + text(fresh.filter((r) => r.length === 5)));
      const tx: SearchIndexParts = { states: base.states.filter(([s]) => s === 'TX'), codes: base.codes };
      const overlay = await overlayFromFile(overlayBase(base, new Set(['TX'])), changed.map(id), file);
      const overlaid = searchIndexFrom(base, overlay);
      // The same rows as a refresh packs them (its own status and type codes, a pack per state).
      const packs = await Promise.all(['TX', 'CA'].map((s) => packSearchRows(fresh.filter((r) => r[0] === s))));
      const packedOverlaid = searchIndexFrom(base, overlayFromPacked(overlayBase(base, new Set(['TX'])), changed.map(id), packs));
      const patched = mergeOverlay(tx, overlay);
      const merged = searchIndexFrom({ states: [...base.states.filter(([s]) => s !== 'TX'), ...patched.states], codes: patched.codes });
      const rebuilt = searchIndexFrom(await buildSearchIndexParts((async function* () { yield all(after); })()));
      let nonEmpty = 0;
      for (const states of [['TX'], ['FL'], ['TX', 'FL'], ['CA', 'TX']]) {
        const cases: Partial<SearchFilters>[] = [
          {},
          { lastNameTerms: ['zeph'] },
          { lastNameTerms: ['ola'] },
          { nameTerms: ['ann'], status: 'active' },
          { status: 'suspended' },
          { status: 'inactive', licenseType: 'salesperson' },
          { businessNameTerms: ['realty'] },
          { cityTerms: ['paso'] },
          { licenseNumberPrefix: 'L5' },
          { licenseNumberPrefix: 'L1' },
          ...['2026-06-29', '2026-06-30', '2026-10-30', '2026-10-31', '2026-11-01', '2026-11-22'].flatMap((today) => [{ brokerageTerms: ['broker 1'], today }, { brokerageTerms: ['new'], today }, { brokerageTerms: ['brokerage'], today }, { brokerageTerms: ['realty'], today }]),
        ];
        for (const c of cases) {
          for (const [skip, limit] of [[0, 5000], [7, 25]]) {
            const filters = { ...NONE, states, ...c };
            const expected = rebuilt.search(filters, skip, limit);
            expect(merged.search(filters, skip, limit), JSON.stringify({ filters, skip })).toEqual(expected);
            expect(overlaid.search(filters, skip, limit), JSON.stringify({ filters, skip, overlaid: true })).toEqual(expected);
            expect(packedOverlaid.search(filters, skip, limit), JSON.stringify({ filters, skip, packed: true })).toEqual(expected);
            if (expected.total) nonEmpty += 1;
          }
        }
      }
      expect(nonEmpty).toBeGreaterThan(150);
      // The cases see the patch: the renamed, the suspended, the added and the relinked rows.
      expect(rebuilt.search({ ...NONE, states: ['TX'], lastNameTerms: ['zeph'] }, 0, 10).total).toBe(changed.filter((i) => i < 2000 && i % 5 === 1).length);
      expect(rebuilt.search({ ...NONE, states: ['TX'], brokerageTerms: ['new'], today: '2026-11-22' }, 0, 10).total).toBeGreaterThan(5);
      expect(merged.search({ ...NONE, states: ['TX'] }, 0, 1).total).toBe(2000 - changed.filter((i) => i < 2000 && i % 5 === 0).length + 40);
      expect([merged.rows, overlaid.rows, packedOverlaid.rows]).toEqual([rebuilt.rows, rebuilt.rows, rebuilt.rows]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the search index kept on disk between starts', () => {
  it('when the graph closed cleanly then the next start reads the kept index, and after a write elsewhere it rebuilds', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-snapshot-'));
    const config = testConfig({ graphPath: path.join(dir, 'graph.lbug'), GRAPH_BUFFER_POOL_MB: 256, GRAPH_CONNECTIONS: 2, GRAPH_QUERY_TIMEOUT_MS: 30000 });
    const snapshot = path.join(dir, 'search-index.snapshot');
    const filters = { ...NONE, states: ['TX'], nameTerms: ['a'] };
    const holderOf = (g: GraphAdapters) => searchIndexOver(g.searchSource(), (err) => { throw err; }, snapshot);
    try {
      let graph = await openGraph(config, files);
      await importFolder(importsOf(graph, files), fixture('small'));
      let holder = holderOf(graph);
      const found = (await holder.current()).search(filters, 0, 50);
      expect(found?.total).toBeGreaterThan(0);
      await graph.close();
      holder.persist();
      expect(fs.existsSync(snapshot)).toBe(true);
      // What a process killed during a rebuild leaves: the export and the folder of its parts.
      const leftover = path.join(dir, 'lvs-export-1-2-x.csv');
      fs.writeFileSync(leftover, 'TX');
      fs.mkdirSync(`${leftover}-parts-abc`);
      fs.writeFileSync(path.join(`${leftover}-parts-abc`, '0.csv'), 'TX');

      graph = await openGraph(config, files);
      expect(fs.readdirSync(dir).filter((f) => f.startsWith('lvs-export-'))).toEqual([]);
      // Rows an offline load left for this very version: the kept index is read, and they are dropped.
      const rows = path.join(dir, 'rows.csv');
      fs.writeFileSync(rows, 'TX');
      seedSearchIndex(snapshot, rows, await graph.searchSource().version(true));
      holder = holderOf(graph);
      const kept = (await holder.current()) as Awaited<ReturnType<SearchIndex['current']>> & { parts: object };
      expect(holder.status()).toMatchObject({ status: 'ready', built_from: 'snapshot' });
      expect(fs.readdirSync(dir).filter((f) => f.includes('.seed'))).toEqual([]);
      expect(kept.search(filters, 0, 50)).toEqual(found);
      // No array read from the file keeps the file's whole buffer alive.
      const views: ArrayBufferView[] = [];
      const collect = (x: unknown) => (ArrayBuffer.isView(x) ? views.push(x) : x && typeof x === 'object' && Object.values(x).forEach(collect));
      collect(kept.parts);
      expect(views.length).toBeGreaterThan(10);
      expect(views.filter((v) => v.byteLength !== v.buffer.byteLength)).toEqual([]);
      await graph.close();
      holder.persist();

      // Another process writes while no server runs: the kept index is not for this file any more.
      graph = await openGraph(config, files);
      await importFolder(importsOf(graph, files), DEMO_SEEDS);
      await graph.close();
      graph = await openGraph(config, files);
      holder = holderOf(graph);
      expect(fs.existsSync(snapshot)).toBe(false);
      await holder.current();
      expect(holder.status().built_from).toBe('export');
      expect((await holder.current()).search(filters, 0, 50)).toEqual((await searchOracle(graph.engine)).search(filters, 0, 50));
      await graph.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the search index seeded with the rows an offline load left', () => {
  it('when the rows are of the graph\'s version then the first build reads them and exports nothing; of another version, they are dropped and the graph exported', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-seed-'));
    const snapshot = path.join(dir, 'search-index.snapshot');
    const graph = await emptyGraph();
    try {
      await importFolder(importsOf(graph, files), fixture('small'));
      const source = graph.searchSource();
      let exports = 0;
      const counted: SearchSource = { ...source, exportRows: (...args) => (exports++, source.exportRows(...args)) };
      const left = () => fs.readdirSync(dir).filter((f) => f.includes('.seed'));
      const filters = { ...NONE, states: ['TX'], nameTerms: ['a'] };
      const oracle = (await searchOracle(graph.engine)).search(filters, 0, 50);
      expect(oracle.total).toBeGreaterThan(0);

      const version = await source.version(true);
      seedSearchIndex(snapshot, (await source.exportRows(version))!, version);
      expect(left().sort()).toEqual(['search-index.snapshot.seed', 'search-index.snapshot.seed.json']);
      let holder = searchIndexOver(counted, (err) => expect.fail(String(err)), snapshot);
      expect((await holder.current()).search(filters, 0, 50)).toEqual(oracle);
      expect(holder.status().built_from).toBe('load');
      expect(exports).toBe(0);
      expect(left()).toEqual([]);
      holder.close();

      seedSearchIndex(snapshot, (await source.exportRows(version))!, { ...version, graph: `${version.graph}-before` });
      holder = searchIndexOver(counted, (err) => expect.fail(String(err)), snapshot);
      expect((await holder.current()).search(filters, 0, 50)).toEqual(oracle);
      expect(holder.status().built_from).toBe('export');
      expect(exports).toBe(1);
      expect(left()).toEqual([]);
      holder.close();
    } finally {
      await graph.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('reading a bulk file back', () => {
  it('when fields hold the delimiter, the quote or line breaks then each row reads back as written, empty as null', async () => {
    const rows = [
      { a: 'plain', b: null, c: 'x' },
      { a: 'with\u001edelimiter', b: 'quote\u0002inside', c: 'line\nbreak' },
      { a: 'é ü ß', b: '', c: 'last' },
    ];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-bulk-'));
    const file = path.join(dir, 'rows.csv');
    try {
      // csvText writes a header line; the export files have none.
      fs.writeFileSync(file, csvText(['a', 'b', 'c'], rows).text.split('\n').slice(1).join('\n'));
      const read: (string | null)[][] = [];
      for await (const chunk of readBulkFile(file)) read.push(...chunk);
      expect(read).toEqual([
        ['plain', null, 'x'],
        ['with\u001edelimiter', 'quote\u0002inside', 'line\nbreak'],
        ['é ü ß', null, 'last'],
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when a two-byte character and a quoted line break straddle the file\'s 4 MB reads, and the last record has no line break, then every record reads back whole', async () => {
    const CHUNK = 1 << 22;
    const records: string[][] = [];
    const lines: string[] = [];
    let bytes = 0;
    const add = (fields: string[], text: string) => {
      records.push(fields);
      lines.push(text);
      bytes += Buffer.byteLength(text) + 1;
    };
    const fillTo = (at: number) => {
      // 64-byte lines up to `at`, the last one shortened to land on it.
      while (bytes < at) add(['f', 'x'.repeat(Math.max(0, Math.min(61, at - bytes - 3)))], `f\u001e${'x'.repeat(Math.max(0, Math.min(61, at - bytes - 3)))}`);
    };
    fillTo(CHUNK - 64);
    expect(bytes).toBe(CHUNK - 64);
    // 'é' at bytes CHUNK - 1 and CHUNK: split by the first read's end.
    add(['b', `${'b'.repeat(59)}éé`], `b\u001e${'b'.repeat(59)}éé`);
    fillTo(2 * CHUNK - 10);
    // A quoted field's line breaks across the second read's end.
    add(['q', 'one\ntwo\nthree\nfour', 'z'], 'q\u001e\u0002one\ntwo\nthree\nfour\u0002\u001ez');
    add(['end', 'é'], 'end\u001eé');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-bulk-'));
    const file = path.join(dir, 'rows.csv');
    try {
      fs.writeFileSync(file, lines.join('\n'));
      const read: (string | null)[][] = [];
      for await (const chunk of readBulkFile(file)) read.push(...chunk);
      expect(read.length).toBe(records.length);
      expect(read).toEqual(records.map((r) => r.map((v) => v || null)));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a bulk file split by its first field', () => {
  it('when records hold quoted line breaks, multi-byte characters and no last line break then the byte split writes what the record split writes, at any chunk size', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-split-'));
    try {
      const records = [
        'FL\u001ea\u001e\u0002line\nbreak\u0002',
        'FL\u001eb\u001eé ü ß',
        'CA\u001ec\u001e\u0002two\n\nbreaks and \u0002\u0002 a quote\u0002',
        'FL\u001ed\u001e',
        'TX\u001eе\u001e中文',
        'CA\u001ef\u001e\u0002\nstarts with a break\u0002',
      ];
      const file = path.join(dir, 'rows.csv');
      fs.writeFileSync(file, records.join('\n'));
      const read = (parts: Map<string, string>) => [...parts].map(([key, part]) => [key, fs.readFileSync(part, 'utf8')]);
      const expected = read(await splitBulkFile(file, fs.mkdtempSync(path.join(dir, 'r-')), (record) => [record.slice(0, record.indexOf('\u001e'))]));
      expect(expected.map(([key]) => key)).toEqual(['FL', 'CA', 'TX']);
      for (const chunk of [1, 2, 3, 7, 64, 1 << 22]) expect(read(await splitBulkFileByFirstField(file, fs.mkdtempSync(path.join(dir, 'b-')), chunk)), `chunks of ${chunk} bytes`).toEqual(expected);
      fs.writeFileSync(file, `${records.join('\n')}\n`);
      expect(read(await splitBulkFileByFirstField(file, fs.mkdtempSync(path.join(dir, 'b-')), 5))).toEqual(expected);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('exports joined into one file', () => {
  for (const atOnce of [false, true]) {
    it(`when three exports are joined ${atOnce ? 'at once' : 'one after another'} then the file holds their rows in their order, and when one fails no file is left`, async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-concat-'));
      try {
        const made: string[] = [];
        const make = (name: string, ms: number) => async () => {
          await new Promise((r) => setTimeout(r, ms));
          const file = path.join(dir, name);
          fs.writeFileSync(file, `${name}1\n${name}2\n`);
          made.push(name);
          return file;
        };
        // The first ends last when they run at once: the rows still follow the list.
        const file = await concatExports([make('a', 60), make('b', 0), make('c', 20)], atOnce);
        expect(fs.readFileSync(file, 'utf8')).toBe('a1\na2\nb1\nb2\nc1\nc2\n');
        expect(made).toEqual(atOnce ? ['b', 'c', 'a'] : ['a', 'b', 'c']);
        expect(fs.readdirSync(dir)).toEqual(['a']);
        fs.rmSync(file);

        const failing = concatExports([make('a', 0), () => Promise.reject(new Error('the graph went away')), make('c', 20)], atOnce);
        await expect(failing).rejects.toThrow('the graph went away');
        expect(fs.readdirSync(dir)).toEqual([]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

describe('the search index of a request pinned to a generation', () => {
  it('when a publish moved the index on then a request pinned before it searches the index it replaced, one pinned to no kept generation is a 503, and the replaced index goes once no request reads it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-index-pinned-'));
    const rowsAt = (g: number): SearchIndexRow[] =>
      Array.from({ length: 30 }, (_, i) => ['TX', `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, `${g === 1 ? 'old' : 'new'} ${i}`, `L${i}`, 'active', 'salesperson', g === 1 ? 'old' : 'new', null, g === 1 ? 'old' : 'new', null, null]);
    let version: SearchVersion = { graph: 'one', generation: 1 };
    // The request's pin and the pins running requests hold, as the Neo4j source reads them from its read scope.
    let pin: number | undefined;
    const held = new Set<number>();
    const pinnedBy: (number | undefined)[] = [];
    const source: SearchSource = {
      version: async () => version,
      exportRows: async (at) => {
        const file = path.join(dir, `export-${at.generation}.csv`);
        const list = rowsAt(at.generation!);
        fs.writeFileSync(file, csvText(list[0].map((_, i) => `c${i}`), list.map((r) => Object.fromEntries(r.map((v, i) => [`c${i}`, v])))).text.split('\n').slice(1).join('\n'));
        return file;
      },
      onWrite: () => undefined,
      readAt: (g) => void pinnedBy.push(g),
      pinnedGeneration: async () => pin,
      holds: (g) => held.has(g),
    };
    const holder = searchIndexOver(source, (err) => expect.fail(String(err)));
    const named = async (term: string) => (await holder.search({ ...NONE, states: ['TX'], lastNameTerms: [term] }, 0, 50)).total;
    try {
      expect(await named('old')).toBe(30);
      version = { graph: 'two', generation: 2 };
      expect(await named('new')).toBe(30);
      expect(pinnedBy).toEqual([1, 2]);

      // Pinned to generation 1, as a request whose graph reads began before the publish: answered there, not pinned again.
      pin = 1;
      held.add(1);
      expect([await named('old'), await named('new')]).toEqual([30, 0]);
      expect(pinnedBy).toEqual([1, 2]);
      // Pinned to a generation no kept index shows: a 503 to retry, never another generation's answer.
      pin = 0;
      await expect(named('new')).rejects.toMatchObject({ status: 503, headers: { 'Retry-After': '1' } });

      // No request reads generation 1 and its least time has passed: the next poll lets its index go.
      held.delete(1);
      const realNow = Date.now;
      Date.now = () => realNow() + 6_000;
      try {
        pin = 1;
        await expect.poll(() => named('old').then(() => 'kept', (err: { status?: number }) => err.status), { timeout: 10_000, interval: 200 }).toBe(503);
      } finally {
        Date.now = realNow;
      }
      pin = undefined;
      expect([await named('old'), await named('new')]).toEqual([0, 30]);
    } finally {
      holder.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
