import { systemClock } from '../../src/domain/clock.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { credentialId } from '../../src/domain/identity.js';
import { SHAPE_SUPERVISOR_FIELDS, type ShapeSupervisor } from '../../src/domain/credential.js';
import { namesDesignationsOf } from '../../src/modules/licensees/licensee-shape.js';
import { importsOf } from '../../src/compose/index.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { importFolder } from '../../src/ingest/load.js';
import { createCoverageService } from '../../src/modules/coverage/coverage.service.js';
import { createLegacyService } from '../../src/modules/legacy/legacy.service.js';
import { createLicenseesService } from '../../src/modules/licensees/licensees.service.js';
import { createRelationshipsService } from '../../src/modules/relationships/relationships.service.js';
import { TEST_ENGINE, emptyGraph, files, fixture, testIndex } from '../helpers/graph.js';

// One suite over the graph port, on the engine of the project running it: LadybugDB in `ladybug`,
// the real Neo4j in `neo4j` (vitest.config.ts). It runs every query the service runs, through the
// repositories and services that run them.
const engines = [TEST_ENGINE];

const TODAY = () => '2026-11-22';

describe.each(engines)('the graph port on %s', (engine) => {
  let graph: GraphAdapters;
  let services: ReturnType<typeof wire>;
  const wire = (g: GraphAdapters) => {
    const reads = g.reads(TODAY);
    const licensees = createLicenseesService(reads, systemClock, testIndex(g));
    return {
      licensees,
      relationships: createRelationshipsService(reads, licensees, TODAY),
      coverage: createCoverageService(g.reads(() => '2026-11-22'), () => new Date()),
      legacy: createLegacyService(reads, licensees),
      imports: importsOf(g, files),
    };
  };
  beforeAll(async () => {
    graph = await emptyGraph(engine);
    services = wire(graph);
    await importFolder(services.imports, fixture('small'), { now: () => new Date('2026-11-01T07:00:00Z') });
  });
  afterAll(() => graph?.close());

  const census = async () => {
    const count = async (q: string) => Number((await graph.engine.read(q))[0].n);
    return [
      await count('MATCH (c:LicenseCredential) RETURN count(c) AS n'),
      await count('MATCH (l:Licensee) RETURN count(l) AS n'),
      await count('MATCH (:LicenseCredential)-[r:SUPERVISES]->(:LicenseCredential) RETURN count(r) AS n'),
      await count('MATCH (:LicenseCredential)-[r:AFFILIATED_WITH]->(:Brokerage) RETURN count(r) AS n'),
      await count('MATCH (:Licensee)-[h:HOLDS]->(:LicenseCredential) RETURN count(h) AS n'),
    ];
  };
  const search = (q: Record<string, unknown>) => services.licensees.search({ states: ['TX'], page: 1, per_page: 100, ...q });
  const numbers = async (q: Record<string, unknown>) => (await search(q)).data.map((l) => l.license_number).sort();

  it('when a licence is looked up by state and number in any spelling then the full record comes back with plain JSON values', async () => {
    const { verified, licensee } = await services.licensees.verify({ state: 'tx', license_number: ' 763827-sa ' });
    expect(verified).toBe(true);
    expect(licensee).toMatchObject({
      id: credentialId('TX', '763827-SA'),
      issue_date: '2015-03-01',
      expiration_date: '2027-03-31',
      brokerage: 'ACME REALTY LLC',
      designated_broker: { license_number: '200001-B', name: 'DANA QUINN' },
      data_source_notes: ['Source: fixture, snapshot of 2026-11-01', 'Name published in upper case only'],
      last_verified: '2026-11-01T06:00:00.000Z',
    });
    expect(await services.licensees.verify({ state: 'TX', license_number: 'missing' })).toMatchObject({ verified: false, licensee: null, verdict: 'not_found' });
  });

  it('when search uses each filter then each narrows to the expected licences', async () => {
    expect(await numbers({ name: 'munoz JOSE' })).toEqual(['763827-SA']);
    expect(await numbers({ first_name: 'zo' })).toEqual(['763828-SA']);
    expect(await numbers({ last_name: 'quinn' })).toEqual(['200001-B']);
    expect(await numbers({ business_name: 'acme' })).toEqual(['100001-B']);
    expect(await numbers({ city: 'austin' })).toEqual(['100001-B', '200001-B']);
    expect(await numbers({ status: 'suspended' })).toEqual(['900002-B']);
    expect(await numbers({ license_type: 'salesperson' })).toEqual(['763827-SA', '763828-SA', '763829-SA']);
    expect(await numbers({ brokerage: 'acme' })).toEqual(['763827-SA']);
    expect((await services.licensees.search({ states: ['NY'], brokerage: 'hudson', page: 1, per_page: 10 })).meta.total).toBe(2);
  });

  it('when paging then pages follow the documented order without overlap and the total is exact', async () => {
    const all = (await search({})).data.map((l) => l.id);
    const paged = [];
    for (let page = 1; page <= 3; page++) paged.push(...(await search({ page, per_page: 3 })).data.map((l) => l.id));
    expect(paged).toEqual(all);
    expect((await search({ page: 5, per_page: 3 })).meta.total).toBe(8);
    expect((await search({})).data.slice(0, 3).map((l) => l.last_name ?? l.business_name)).toEqual(['ACME REALTY LLC', 'ADAMS', 'BROKER']);
  });

  it('when a batch mixes hits and misses then results keep input order', async () => {
    const res = await services.licensees.batch([
      { state: 'NY', license_number: '00055592' },
      { state: 'TX', license_number: 'nope' },
      { state: 'tx', license_number: '900001-b' },
    ]);
    expect(res.map((r) => r.verified)).toEqual([true, false, true]);
  });

  it('when supervisors, affiliates and history are read then they follow the half-open interval', async () => {
    const ref = { state: 'TX', license_number: '763827-SA' };
    expect((await services.relationships.supervisors(ref, {})).map((s) => s.license_number)).toEqual(['100001-B']);
    expect((await services.relationships.supervisors({ state: 'TX', license_number: '200001-B' }, {}))).toEqual([]);
    const affiliates = await services.relationships.affiliates({ state: 'TX', license_number: '100001-B' }, {}, 1, 25);
    expect(affiliates.meta.total).toBe(1);
    expect(affiliates.data[0]).toMatchObject({ license_number: '763827-SA', effective_from: '2020-06-01' });
    const at = async (as_of: string, include_inactive = false) =>
      (await services.relationships.affiliations(ref, { as_of, include_inactive })).map((a) => [a.supervisor_license_number, a.status]);
    expect(await at('2020-05-31')).toEqual([['300001-B', 'active']]);
    expect(await at('2020-06-01')).toEqual([['100001-B', 'active']]);
    expect(await at('2021-01-01', true)).toEqual([['100001-B', 'active'], ['300001-B', 'ended']]);
    expect((await services.relationships.affiliations(ref, { include_inactive: false, relationship_type: 'designated_broker' }))).toEqual([]);
  });

  it("when supervisors are read for the public shape then each holds the shape's fields as the whole record has them", async () => {
    const reads = graph.reads(TODAY);
    const ids = (await search({})).data.map((l) => l.id);
    const whole = await reads.withSupervisors(ids, namesDesignationsOf);
    const shaped = await reads.shapeSupervisors(ids, namesDesignationsOf);
    expect(shaped.records).toEqual(whole.records);
    const fields = [...SHAPE_SUPERVISOR_FIELDS, 'affiliate_id', 'affiliate_role', 'relationship_type', 'effective_from', 'effective_to'] as const;
    const pick = (s: ShapeSupervisor) => Object.fromEntries(fields.map((k) => [k, s[k]]));
    expect(shaped.open.map(pick)).toEqual(whole.open.map(pick));
    // The designated broker above the agent's brokerage (the second level) is among them.
    expect(shaped.open.filter((s) => s.license_number === '200001-B').map(pick)).toEqual(whole.open.filter((s) => s.license_number === '200001-B').map(pick));
    expect(shaped.open.some((s) => s.license_number === '200001-B' && s.full_name === 'DANA QUINN')).toBe(true);
  });

  it('when the hierarchy is walked then it reaches the top, or stops at a cycle', async () => {
    const chain = await services.relationships.hierarchy(credentialId('TX', '763827-SA'), 10);
    expect(chain.levels.map((l) => [l.depth, l.license_number])).toEqual([[1, '100001-B'], [2, '200001-B']]);
    expect(chain.terminated_by).toBe('top');
    const cycle = await services.relationships.hierarchy(credentialId('TX', '900001-B'), 10);
    expect(cycle).toMatchObject({ terminated_by: 'cycle', cycle_detected: true });
  });

  it('when coverage, raw search and type counts are read then counts come from the data', async () => {
    const coverage = (await services.coverage.coverage()).states;
    expect(coverage.find((s) => s.state === 'TX')).toMatchObject({ record_count: 8, active_record_count: 5, last_updated: '2026-11-01T07:00:00.000Z' });
    const raw = await services.legacy.searchRaw({ state: 'TX', license_number: '7638', page: 1, per_page: 10 });
    expect(raw.data.map((r) => r.license_number)).toEqual(['763829-SA', '763827-SA', '763828-SA']);
    expect(await services.legacy.typeCounts(['NY'])).toEqual([
      { state: 'NY', license_type: 'broker_associate', count: 1 },
      { state: 'NY', license_type: 'salesperson', count: 1 },
    ]);
  });

  it('when the same folder is imported again then nothing changes', async () => {
    const before = await census();
    await importFolder(services.imports, fixture('small'), { now: () => new Date('2026-11-01T07:00:00Z') });
    expect(await census()).toEqual(before);
  });

  // Last: it adds TX credentials the counts above do not hold.
  it("when a broker's affiliates tie on name or hold two relationships then pages come in the domain's order: name, id, type, start", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-affiliate-order-'));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const header = fs.readFileSync(fixture('small/credentials.csv'), 'utf8').split('\n')[0];
    const person = (number: string, first: string, last: string) =>
      `TX,${number},salesperson,Sales Agent,Active,,person,${first} ${last},${first},,${last},,,2015-01-01,2027-01-31,,,,,,,,,,,fixture,2026-11-01,2026-11-01T06:00:00Z,`;
    fs.writeFileSync(path.join(dir, 'credentials.csv'), [header, person('610001-SA', 'AMY', 'ZED'), person('610003-SA', 'ANN', 'SMITH'), person('610002-SA', 'ANN', 'SMITH'), person('610004-SA', 'BO', 'ADAMS'), ''].join('\n'));
    const link = (number: string, type: string, from: string) => `TX,100001-B,TX,${number},salesperson,${type},${from},,fixture`;
    fs.writeFileSync(path.join(dir, 'relationships.csv'), [
      fs.readFileSync(fixture('small/relationships.csv'), 'utf8').split('\n')[0],
      link('610001-SA', 'sponsoring_broker', '2021-01-01'), link('610002-SA', 'sponsoring_broker', '2021-01-01'), link('610003-SA', 'sponsoring_broker', '2022-01-01'),
      link('610003-SA', 'sponsoring_broker', '2021-06-01'), link('610003-SA', 'employing_broker', '2023-01-01'), link('610004-SA', 'sponsoring_broker', '2021-01-01'), '',
    ].join('\n'));
    fs.copyFileSync(fixture('small/jurisdictions.csv'), path.join(dir, 'jurisdictions.csv'));
    await importFolder(services.imports, dir, { now: () => new Date('2026-11-01T07:00:00Z') });
    // Two SMITH ANNs sort by licence number; the same affiliate's relationships by type, then start.
    const order = [['610004-SA', 'sponsoring_broker', '2021-01-01'], ['610002-SA', 'sponsoring_broker', '2021-01-01'], ['610003-SA', 'employing_broker', '2023-01-01'],
      ['610003-SA', 'sponsoring_broker', '2021-06-01'], ['610003-SA', 'sponsoring_broker', '2022-01-01'], ['610001-SA', 'sponsoring_broker', '2021-01-01'], ['763827-SA', 'sponsoring_broker', '2020-06-01']];
    const broker = { state: 'TX', license_number: '100001-B' };
    const page = async (n: number, size: number) => (await services.relationships.affiliates(broker, {}, n, size)).data.map((a) => [a.license_number, a.relationship_type, a.effective_from]);
    expect((await services.relationships.affiliates(broker, {}, 1, 25)).meta.total).toBe(7);
    // 763827-SA is MUNOZ JOSE: between ADAMS and ZED by name.
    const expected = [order[0], order[6], order[1], order[2], order[3], order[4], order[5]];
    expect(await page(1, 25)).toEqual(expected);
    expect([...(await page(1, 3)), ...(await page(2, 3)), ...(await page(3, 3))]).toEqual(expected);
  });
});
