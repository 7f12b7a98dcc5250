import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importsOf, refreshOf } from '../../src/compose/index.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import type { SearchFilters } from '../../src/domain/search-filters.js';
import { importFolder } from '../../src/ingest/load.js';
import { refresh } from '../../src/ingest/refresh/refresh.js';
import { resolveFormat } from '../../src/ingest/sources/index.js';
import { searchIndexOver } from '../../src/search/holder.js';
import { TEST_ENGINE, files, fixture, testGraph, testStore } from '../helpers/graph.js';
import { TX_FEED_SNAPSHOTS, folderWith, tempFile, txRow } from '../helpers/source-files.js';

const NONE: SearchFilters = { states: ['TX'], nameTerms: [], firstNameTerms: [], lastNameTerms: [], businessNameTerms: [], cityTerms: [], brokerageTerms: [], today: '2026-11-22' };

// Forty agents no snapshot changes, some under the broker the second snapshot moves an agent to.
const STEADY = Array.from({ length: 40 }, (_, i) =>
  txRow({ type: 'Sales Agent', number: `${500 + i}-SA`, name: `${['QUIET', 'CALM', 'STILL', 'PLAIN'][i % 4]} AGENT${i}`, ...(i % 3 ? {} : { related: '200-B', relatedStart: '01/02/2020 12:00:00 AM' }) }),
);
const snapshot = (text: string) => `${text}\n${STEADY.join('\n')}`;

describe('the search index after refreshes that change a few rows', () => {
  let graph: GraphAdapters;
  let side: Awaited<ReturnType<typeof testStore>>;
  const rejectsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-row-patches-'));
  const ingest = (text: string, date: string) => {
    const file = tempFile('tx.csv', `${text}\n`);
    return refresh(refreshOf(graph, files, side.clock, side.changes.log), { files: [file], format: resolveFormat(file), snapshot: date, rejectsDir });
  };
  const holders: ReturnType<typeof searchIndexOver>[] = [];
  const holder = () => {
    const h = searchIndexOver(graph.searchSource(), (err) => { throw err; });
    holders.push(h);
    return h;
  };
  /** Every page a caller could ask of TX: listings, names, statuses and the brokerage filter on days around the links' dates. */
  const cases = (): SearchFilters[] => [
    NONE,
    { ...NONE, nameTerms: ['agent'] },
    { ...NONE, nameTerms: ['agent'], status: 'active' },
    { ...NONE, status: 'inactive' },
    { ...NONE, lastNameTerms: ['broker'] },
    { ...NONE, firstNameTerms: ['quiet'] },
    { ...NONE, nameTerms: ['fresh'] },
    { ...NONE, nameTerms: ['zed'] },
    { ...NONE, licenseNumberPrefix: '5' },
    ...['2020-01-02', '2026-09-14', '2026-09-15', '2026-10-01', '2026-11-22'].flatMap((today) => [
      { ...NONE, brokerageTerms: ['new'], today },
      { ...NONE, brokerageTerms: ['old'], today },
      { ...NONE, brokerageTerms: ['broker'], status: 'active', today },
    ]),
  ];
  /** What `h` answers to every case, as an index built afresh from the graph answers it. */
  const expectAsFresh = async (h: ReturnType<typeof searchIndexOver>) => {
    const fresh = holder();
    const [patched, whole] = [await h.current(), await fresh.current()];
    for (const filters of cases()) for (const [skip, limit] of [[0, 100], [3, 4]]) expect(patched.search(filters, skip, limit), JSON.stringify(filters)).toEqual(whole.search(filters, skip, limit));
    return whole.search(NONE, 0, 1).total;
  };

  beforeAll(async () => {
    ({ graph } = await testGraph());
    side = await testStore();
  });
  afterAll(async () => {
    for (const h of holders) h.close();
    await graph?.close();
    await side?.store.close();
    fs.rmSync(rejectsDir, { recursive: true, force: true });
  });

  it('when a refresh changes some rows then on Neo4j the index reads those alone, two refreshes behind too, and answers every search as an index built afresh', async () => {
    await ingest(snapshot(TX_FEED_SNAPSHOTS.first), '2026-09-01');
    const live = holder();
    const behind = holder();
    await live.current();
    await behind.current();
    expect(live.status().last_build).toMatchObject({ states: expect.any(Number), rows: 45 });
    expect(live.status().last_build?.changed).toBeUndefined();
    // The one that stays behind no longer looks: it takes two refreshes up at once below.
    behind.close();

    // A broker made inactive, an agent moved to another broker, one gone, one renewed, one added.
    await ingest(snapshot(TX_FEED_SNAPSHOTS.second), '2026-10-01');
    expect(await expectAsFresh(live)).toBe(46);
    // Neo4j names the rows each publish changed: 100-B, 1-SA, 2-SA (left the source), 3-SA and 4-SA,
    // of 46, indexed by the refresh that wrote them (one publish behind).
    if (TEST_ENGINE === 'neo4j') expect(live.status().last_build).toMatchObject({ states: 1, changed: 5, rows: 46, prebuilt: true });
    else expect(live.status().last_build?.changed).toBeUndefined();

    // The same snapshot again changes no row: nothing is read.
    await ingest(snapshot(TX_FEED_SNAPSHOTS.second), '2026-10-01');
    expect(await expectAsFresh(live)).toBe(46);
    if (TEST_ENGINE === 'neo4j') expect(live.status().last_build).toMatchObject({ changed: 0, rows: 0 });

    // A rename moves a row in the result order; the agent who left returns.
    await ingest(`${snapshot(TX_FEED_SNAPSHOTS.second).replaceAll('FRESH', 'ZED')}\n${txRow({ type: 'Sales Agent', number: '2-SA', name: 'LEAVING AGENT' })}`, '2026-10-08');
    expect(await expectAsFresh(live)).toBe(46);
    expect((await live.current()).search({ ...NONE, nameTerms: ['zed'] }, 0, 10).total).toBe(1);
    expect((await live.current()).search({ ...NONE, nameTerms: ['fresh'] }, 0, 10).total).toBe(0);
    if (TEST_ENGINE === 'neo4j') expect(live.status().last_build).toMatchObject({ changed: 2, prebuilt: true });

    // Three publishes since `behind` was built: it patches in what all of them changed, read as rows
    // (a pack is of one publish's).
    expect(await expectAsFresh(behind)).toBe(46);
    if (TEST_ENGINE === 'neo4j') expect(behind.status().last_build).toMatchObject({ states: 1, changed: 5, prebuilt: false });
  });

  it('when an import writes a state in place then the state is read whole, since no publish named its rows', async () => {
    const live = holder();
    await live.current();
    const header = fs.readFileSync(path.join(fixture('small'), 'credentials.csv'), 'utf8').split('\n')[0];
    const dir = folderWith({ 'credentials.csv': `${header}\nTX,900001-B,broker,Broker Individual,Active,,person,DANA ZYXWVUT,DANA,,ZYXWVUT,,,1995-02-01,2027-02-28,mailing,2 Oak Ave,,Austin,,TX,78702,,,k-d1,fixture,2026-11-02,2026-11-02T06:00:00Z,\n` });
    try {
      await importFolder(importsOf(graph, files), dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(await expectAsFresh(live)).toBe(47);
    expect(live.status().last_build?.changed).toBeUndefined();
    if (TEST_ENGINE === 'neo4j') expect(live.status().last_build).toMatchObject({ states: 1, rows: 47 });
  });
});
