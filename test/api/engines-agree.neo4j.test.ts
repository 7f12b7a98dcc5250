import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importsOf } from '../../src/compose/index.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { importFolder } from '../../src/ingest/load.js';
import type { SqlStore } from '../../src/store/sql-store.js';
import { DEMO_SEEDS, emptyGraph, files, testApp, testStore } from '../helpers/graph.js';
import { tempDir } from '../helpers/local-neo4j.js';
import { servedDocument } from '../helpers/openapi.js';

// Both engines answer alike: the demo data loaded into LadybugDB and into the real Neo4j, and the
// same requests sent to an app over each. Bodies must be equal field by field (ids, order, dates,
// totals), leaving out only what carries the time of the request (generated_at).

const IMPORTED_AT = new Date('2026-11-01T07:00:00Z');
const TIME_OF_REQUEST = new Set(['generated_at']);

const strip = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(strip)
    : value && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).filter(([k]) => !TIME_OF_REQUEST.has(k)).map(([k, v]) => [k, strip(v)]))
      : value;

const demo = parse(fs.readFileSync(path.join(DEMO_SEEDS, 'credentials.csv')), { columns: true }) as { state: string; license_number: string }[];
// Every 8th licence of the demo set, across its states, and one that is not on file.
const SAMPLE = demo.filter((_, i) => i % 8 === 0).map((r) => [r.state, r.license_number] as const);
const enc = encodeURIComponent;

const SEARCHES = [
  'state=TX',
  'state=TX&page=2&per_page=7',
  'state=TX&page=3&per_page=50',
  'state=FL&name=maria',
  'state=TX&last_name=lee&status=active',
  'state=TX&license_type=broker&per_page=100',
  'state=TX&brokerage=realty',
  'state=CA&city=los',
  'state=NY&business_name=realty',
  'state=TX&first_name=ana&license_type=SALESPERSON',
  'state=FL&status=inactive',
];

interface Side {
  graph: GraphAdapters;
  store: SqlStore;
  api: (method: 'get' | 'post', url: string, body?: unknown) => Promise<{ status: number; body: unknown }>;
}

async function side(engine: 'ladybug' | 'neo4j'): Promise<Side> {
  const graph = await emptyGraph(engine);
  await importFolder(importsOf(graph, files), DEMO_SEEDS, { now: () => IMPORTED_AT });
  const stores = await testStore();
  const app = testApp(graph, stores) as unknown as App;
  const { key } = (await stores.accounts.createAccount({ email: `${engine}@example.com`, plan: 'enterprise' })).key;
  return {
    graph,
    store: stores.store,
    api: async (method, url, body) => {
      const req = request(app)[method](url).set('Authorization', `Bearer ${key}`);
      const res = body === undefined ? await req : await req.send(body as object);
      const problem = servedDocument().checkResponse(method.toUpperCase(), url.split('?')[0], res.status, res.body);
      if (problem) throw new Error(`${method} ${url} on ${engine}: ${problem}`);
      return { status: res.status, body: strip(res.body) };
    },
  };
}

describe('LadybugDB and Neo4j over the demo data', () => {
  let ladybug: Side;
  let neo4j: Side;
  beforeAll(async () => {
    ladybug = await side('ladybug');
    neo4j = await side('neo4j');
  });
  afterAll(async () => {
    for (const s of [ladybug, neo4j]) {
      await s?.graph.close();
      await s?.store.close();
    }
  });

  /** Sends one request to both apps and expects the same status and body; returns the body. */
  const same = async (method: 'get' | 'post', url: string, body?: unknown) => {
    const [a, b] = await Promise.all([ladybug.api(method, url, body), neo4j.api(method, url, body)]);
    expect({ url, status: b.status, body: b.body }).toEqual({ url, status: a.status, body: a.body });
    return a.body as Record<string, any>;
  };

  it('when the coverage, states and sources are read then both answer alike', async () => {
    for (const url of ['/api/v1/coverage', '/api/v1/states', '/api/v1/sources', '/api/v1/sources/coverage', '/api/v1/licenses/license-type-counts?state=TX']) {
      await same('get', url);
    }
  });

  it(`when ${SAMPLE.length} licences are verified, read and walked then both answer alike`, async () => {
    let walked = 0;
    for (const [state, number] of [...SAMPLE, ['TX', '0000000-none'] as const]) {
      const at = `/api/v1/licensees/${state}/${enc(number)}`;
      await same('get', `/api/v1/licensees/verify?state=${state}&license_number=${enc(number)}`);
      const detail = await same('get', at);
      await same('get', `${at}/supervisors`);
      await same('get', `${at}/supervisors?as_of=2021-06-30&include_inactive=true`);
      await same('get', `${at}/affiliations`);
      const affiliates = await same('get', `${at}/affiliates?per_page=5`);
      if ((affiliates.total ?? 0) > 5) await same('get', `${at}/affiliates?per_page=5&page=2`);
      await same('get', `/api/v1/licenses/${state}/${enc(number)}`);
      if (detail.data?.id) {
        await same('get', `/api/v1/license-credentials/${detail.data.id}/hierarchy`);
        walked += 1;
      }
    }
    // The sample reaches licences on file, with hierarchies to walk.
    expect(walked).toBeGreaterThan(SAMPLE.length * 0.9);
  });

  it('when the sample is verified, its relationships read and its hierarchies walked all at once then each answer is the one it gets alone', async () => {
    // Concurrent reads share traversals on Neo4j (one per turn of the event loop, for each set of
    // other parameters): each request must still get its own licence, day and filters.
    const ids = new Map<string, string>();
    for (const [state, number] of SAMPLE) {
      const found = await ladybug.api('get', `/api/v1/licensees/${state}/${enc(number)}`);
      if (found.status === 200) ids.set(`${state}|${number}`, (found.body as { data: { id: string } }).data.id);
    }
    const urls = [...SAMPLE, ['TX', '0000000-none'] as const].flatMap(([state, number]) => [
      `/api/v1/licensees/verify?state=${state}&license_number=${enc(number)}`,
      `/api/v1/licensees/${state}/${enc(number)}/supervisors`,
      `/api/v1/licensees/${state}/${enc(number)}/affiliations`,
      `/api/v1/licensees/${state}/${enc(number)}/affiliations?as_of=2021-06-30&include_inactive=true`,
      `/api/v1/licensees/${state}/${enc(number)}/affiliations?relationship_type=sponsoring_broker`,
      `/api/v1/license-credentials/${ids.get(`${state}|${number}`) ?? '00000000-0000-5000-8000-000000000000'}/hierarchy`,
      `/api/v1/license-credentials/${ids.get(`${state}|${number}`) ?? '00000000-0000-5000-8000-000000000000'}/hierarchy?max_depth=1`,
    ]);
    const alone = [];
    for (const url of urls) alone.push(await ladybug.api('get', url));
    const together = await Promise.all(urls.map((url) => neo4j.api('get', url)));
    expect(together).toEqual(alone);
    expect(alone.filter((a) => a.status === 200).length).toBeGreaterThan(urls.length * 0.9);
  });

  it('when the largest brokers\' affiliates are paged to the end, filtered or not, then both answer alike', async () => {
    let rows = 0;
    for (const broker of ['TX/9089631-B', 'TX/100001-B', 'FL/CQ0000001']) {
      for (const filter of ['', '&affiliate_role=salesperson', '&relationship_type=sponsoring_broker', '&affiliate_role=branch&relationship_type=main_office']) {
        const first = await same('get', `/api/v1/licensees/${broker}/affiliates?per_page=4${filter}`);
        // Every page to one past the last (pages past the middle are read from the end on Neo4j).
        for (let page = 2; page <= Math.ceil((first.meta?.total ?? 0) / 4) + 1; page++) rows += (await same('get', `/api/v1/licensees/${broker}/affiliates?per_page=4&page=${page}${filter}`)).data?.length ?? 0;
      }
    }
    expect(rows).toBeGreaterThan(40);
  });

  it('when searches filter and page then both answer the same licences in the same order with the same totals', async () => {
    let found = 0;
    for (const q of SEARCHES) {
      const page = await same('get', `/api/v1/licensees?${q}`);
      found += page.data.length;
    }
    // The deprecated searches: by first or last name (any state), and of raw records.
    for (const q of ['last_name=lee', 'first_name=ana&state=TX', 'last_name=a&page=2&per_page=10']) {
      found += (await same('get', `/api/v1/licensees/search?${q}`)).data.length;
    }
    for (const q of ['state=TX&name=lee', 'state=FL&license_number=0&status=active', 'state=TX&license_type=broker&page=2&per_page=5']) {
      found += (await same('get', `/api/v1/licenses/search?${q}`)).data.length;
    }
    expect(found).toBeGreaterThan(50);
  });

  it('when search terms hold punctuation then they match it literally, alike on both', async () => {
    // Neo4j's full-text query language gives - ( ) * ? : / & meanings; a term must not take them.
    const { dir, remove } = tempDir('punctuation-');
    try {
      const header = fs.readFileSync(path.join(DEMO_SEEDS, 'credentials.csv'), 'utf8').split('\n')[0];
      const row = (number: string, entity: string, full: string, first: string, last: string, business: string) =>
        `VT,${number},salesperson,Salesperson,Active,active,${entity},"${full}",${first},,"${last}",,"${business}",2020-01-01,2028-01-01,mailing,1 Main St,,Burlington,,VT,05401,US,,vt-${number},vt-test,2026-11-01,2026-11-01T06:00:00Z,`;
      fs.writeFileSync(path.join(dir, 'credentials.csv'), [header, row('1', 'person', "Seán O'Brien-Smith", 'Seán', "O'Brien-Smith", ''), row('2', 'business', 'A&B (Realty) *Group*? 50/50: Co', '', '', 'A&B (Realty) *Group*? 50/50: Co'), row('3', 'person', 'Ann Obrien', 'Ann', 'Obrien', '')].join('\n') + '\n');
      fs.writeFileSync(path.join(dir, 'jurisdictions.csv'), 'state,status,refresh_frequency,relationship_coverage,relationship_coverage_notes,source_id,source_name,source_url,source_format\nVT,active,weekly,source_not_published,Nothing published.,vt-test,Vermont test,https://example.com/,canonical\n');
      fs.writeFileSync(path.join(dir, 'relationships.csv'), 'supervisor_state,supervisor_license_number,affiliate_state,affiliate_license_number,affiliate_role,relationship_type,effective_from,effective_to,source\n');
      for (const s of [ladybug, neo4j]) expect((await importFolder(importsOf(s.graph, files), dir)).rejected).toEqual([]);
    } finally {
      remove();
    }
    const totals: Record<string, number> = {};
    for (const q of ["last_name=o'b", 'last_name=n-s', "name=O%27BRIEN-smith%20sean", 'business_name=%26b', 'business_name=(realty)', 'business_name=*group*%3F', 'name=50%2F50%3A', 'last_name=obr']) {
      totals[q] = (await same('get', `/api/v1/licensees?state=VT&${q}`)).meta.total;
    }
    expect(totals).toEqual({ "last_name=o'b": 1, 'last_name=n-s': 1, 'name=O%27BRIEN-smith%20sean': 1, 'business_name=%26b': 1, 'business_name=(realty)': 1, 'business_name=*group*%3F': 1, 'name=50%2F50%3A': 1, 'last_name=obr': 1 });
  });

  it('when a batch mixes found, unknown and repeated licences then both answer alike', async () => {
    const licenses = [...SAMPLE.slice(0, 40), ['TX', 'nope-1'], SAMPLE[0]].map(([state, license_number]) => ({ state, license_number }));
    const body = await same('post', '/api/v1/licensees/batch', { licenses });
    expect(body.data).toHaveLength(licenses.length);
  });
});
