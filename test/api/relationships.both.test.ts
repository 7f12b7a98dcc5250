import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockOf } from '../../src/domain/clock.js';
import { credentialId } from '../../src/domain/identity.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { LicenseeListResponse } from '../../src/modules/licensees/licensees.schemas.js';
import {
  AffiliatesResponse,
  AffiliationsResponse,
  HierarchyResponse,
  SupervisorsResponse,
} from '../../src/modules/relationships/relationships.schemas.js';
import { DEMO_SEEDS, fixture, TEST_ENGINE, testApp, testGraph, testStore, useApp } from '../helpers/graph.js';
import { tempDir } from '../helpers/local-neo4j.js';
import { body, errorDetail, validationErrors } from '../helpers/http.js';

const AGENT = '/api/v1/licensees/TX/763827-SA';
const ACME = credentialId('TX', '100001-B');
const OLD = credentialId('TX', '300001-B');

describe('relationships over a small graph', () => {
  const t = useApp(fixture('small'));

  const affiliations = async (qs = '') => body(await t.api.get(`${AGENT}/affiliations${qs}`), AffiliationsResponse).data;

  describe('affiliations', () => {
    it('when no as_of is given then only the open relationship is listed as active', async () => {
      const data = await affiliations();
      expect(data).toEqual([
        {
          supervisor_license_credential_id: ACME,
          supervisor_license_number: '100001-B',
          supervisor_full_name: 'ACME REALTY LLC',
          affiliate_role: 'salesperson',
          relationship_type: 'sponsoring_broker',
          effective_from: '2020-06-01',
          effective_to: null,
          status: 'active',
        },
      ]);
    });

    it('when include_inactive=true then the ended relationship is listed too, newest first', async () => {
      const data = await affiliations('?include_inactive=true');
      expect(data.map((a) => [a.supervisor_license_number, a.status, a.effective_to])).toEqual([
        ['100001-B', 'active', null],
        ['300001-B', 'ended', '2020-06-01'],
      ]);
    });

    it('when as_of falls in the earlier period then the old broker is the one in force', async () => {
      expect((await affiliations('?as_of=2019-12-31')).map((a) => a.supervisor_license_credential_id)).toEqual([OLD]);
    });

    it('when as_of is the day the broker changed then the half-open interval gives the new broker', async () => {
      expect((await affiliations('?as_of=2020-06-01')).map((a) => a.supervisor_license_number)).toEqual(['100001-B']);
      expect((await affiliations('?as_of=2020-05-31')).map((a) => a.supervisor_license_number)).toEqual(['300001-B']);
    });

    it('when as_of is later and include_inactive=true then the ended one comes back marked ended', async () => {
      const data = await affiliations('?as_of=2021-01-01&include_inactive=true');
      expect(data.map((a) => [a.supervisor_license_number, a.status])).toEqual([
        ['100001-B', 'active'],
        ['300001-B', 'ended'],
      ]);
    });

    it('when as_of is before any relationship then the list is empty', async () => {
      expect(await affiliations('?as_of=2001-01-01&include_inactive=true')).toEqual([]);
    });

    it('when the role or type filter names another value then nothing matches', async () => {
      expect(await affiliations('?include_inactive=true&relationship_type=designated_broker')).toEqual([]);
      expect((await affiliations('?include_inactive=true&affiliate_role=salesperson')).length).toBe(2);
    });

    it('when include_inactive is not true/false or as_of is not a real date then 422', async () => {
      expect(validationErrors(await t.api.get(`${AGENT}/affiliations?include_inactive=yes`))[0]).toMatchObject({
        loc: ['query', 'include_inactive'],
        type: 'enum',
      });
      for (const bad of ['2025-02-30', '2025-13-01', '20250101', '2025-1-1']) {
        expect(validationErrors(await t.api.get(`${AGENT}/affiliations?as_of=${bad}`))[0].loc).toEqual(['query', 'as_of']);
      }
      expect(validationErrors(await t.api.get(`${AGENT}/affiliations?affiliate_role=boss`))[0].loc).toEqual(['query', 'affiliate_role']);
    });

    it('when the licence is unknown then 404', async () => {
      errorDetail(await t.api.get('/api/v1/licensees/TX/NOPE/affiliations'), 404);
    });
  });

  describe('supervisors', () => {
    it('when the agent has one open sponsor then it is the one supervisor', async () => {
      const data = body(await t.api.get(`${AGENT}/supervisors`), SupervisorsResponse).data;
      expect(data).toEqual([
        {
          license_credential_id: ACME,
          license_number: '100001-B',
          full_name: 'ACME REALTY LLC',
          license_class: 'brokerage',
          affiliate_role: 'salesperson',
          relationship_type: 'sponsoring_broker',
          effective_from: '2020-06-01',
          effective_to: null,
        },
      ]);
    });

    it('when none is on file then 200 with an empty list, and filters narrow the list', async () => {
      expect(body(await t.api.get('/api/v1/licensees/TX/200001-B/supervisors'), SupervisorsResponse).data).toEqual([]);
      expect(body(await t.api.get(`${AGENT}/supervisors?relationship_type=designated_broker`), SupervisorsResponse).data).toEqual([]);
      expect(body(await t.api.get(`${AGENT}/supervisors?affiliate_role=salesperson`), SupervisorsResponse).data).toHaveLength(1);
    });

    it('when the licence is unknown then 404, and a bad filter value 422', async () => {
      errorDetail(await t.api.get('/api/v1/licensees/TX/NOPE/supervisors'), 404);
      validationErrors(await t.api.get(`${AGENT}/supervisors?relationship_type=uncle`));
    });
  });

  describe('affiliates', () => {
    it('when a brokerage has one current agent then it is listed with a total; ended ones are not', async () => {
      const res = body(await t.api.get('/api/v1/licensees/TX/100001-B/affiliates'), AffiliatesResponse);
      expect(res.meta).toEqual({ total: 1, page: 1, per_page: 25 });
      expect(res.data[0]).toEqual({
        affiliate_license_credential_id: credentialId('TX', '763827-SA'),
        license_number: '763827-SA',
        full_name: 'JOSÉ ÁLVARO MUÑOZ',
        license_class: 'salesperson',
        affiliate_role: 'salesperson',
        relationship_type: 'sponsoring_broker',
        effective_from: '2020-06-01',
      });
      expect(body(await t.api.get('/api/v1/licensees/TX/300001-B/affiliates'), AffiliatesResponse).meta.total).toBe(0);
    });

    it('when paging parameters are out of range then 422; unknown licence 404', async () => {
      validationErrors(await t.api.get('/api/v1/licensees/TX/100001-B/affiliates?per_page=0'));
      errorDetail(await t.api.get('/api/v1/licensees/TX/NOPE/affiliates'), 404);
    });
  });

  describe('hierarchy', () => {
    it('when walked from an agent then each level names the supervisor, relationship and depth up to the top', async () => {
      const res = body(await t.api.get(`/api/v1/license-credentials/${credentialId('TX', '763827-SA')}/hierarchy`), HierarchyResponse);
      expect(res.levels.map((l) => [l.depth, l.license_number, l.relationship_type, l.supervises_license_credential_id])).toEqual([
        [1, '100001-B', 'sponsoring_broker', credentialId('TX', '763827-SA')],
        [2, '200001-B', 'designated_broker', ACME],
      ]);
      expect(res).toMatchObject({ terminated_by: 'top', reached_top: true, cycle_detected: false, truncated: false, depth_reached: 2 });
      expect(res.levels[1]).toMatchObject({ full_name: 'DANA QUINN', license_type: 'broker', status: 'Active', effective_from: '2010-01-01' });
    });

    it('when two licences supervise each other then the walk stops and reports the cycle', async () => {
      const res = body(await t.api.get(`/api/v1/license-credentials/${credentialId('TX', '900001-B')}/hierarchy`), HierarchyResponse);
      expect(res.levels.map((l) => l.license_number)).toEqual(['900002-B']);
      expect(res).toMatchObject({ terminated_by: 'cycle', cycle_detected: true, reached_top: false });
    });

    it('when max_depth cuts the chain then it says so', async () => {
      const res = body(
        await t.api.get(`/api/v1/license-credentials/${credentialId('TX', '763827-SA')}/hierarchy?max_depth=1`),
        HierarchyResponse,
      );
      expect(res.levels.map((l) => l.depth)).toEqual([1]);
      expect(res).toMatchObject({ terminated_by: 'max_depth', truncated: true, max_depth: 1 });
    });

    it('when the credential is at the top then no levels and reached_top', async () => {
      const res = body(await t.api.get(`/api/v1/license-credentials/${credentialId('TX', '200001-B')}/hierarchy`), HierarchyResponse);
      expect(res).toMatchObject({ levels: [], terminated_by: 'top', reached_top: true, depth_reached: 0 });
    });

    it('when the id is not a UUID then 422; unknown UUID 404; max_depth out of range 422', async () => {
      expect(validationErrors(await t.api.get('/api/v1/license-credentials/not-a-uuid/hierarchy'))[0]).toMatchObject({
        loc: ['path', 'credential_id'],
      });
      errorDetail(await t.api.get('/api/v1/license-credentials/00000000-0000-4000-8000-000000000000/hierarchy'), 404);
      validationErrors(await t.api.get(`/api/v1/license-credentials/${ACME}/hierarchy?max_depth=99`));
    });
  });
});

describe('relationships over the demo dataset', () => {
  const t = useApp(DEMO_SEEDS);

  it('when the large TX brokerage is paged then pages do not overlap and add up to the total', async () => {
    const first = body(await t.api.get('/api/v1/licensees/TX/9089631-B/affiliates?per_page=10'), AffiliatesResponse);
    expect(first.meta.total).toBeGreaterThanOrEqual(30);
    const seen = new Set<string>();
    for (let page = 1; (page - 1) * 10 < first.meta.total; page++) {
      const res = body(await t.api.get(`/api/v1/licensees/TX/9089631-B/affiliates?per_page=10&page=${page}`), AffiliatesResponse);
      for (const a of res.data) seen.add(`${a.affiliate_license_credential_id}|${a.relationship_type}`);
    }
    expect(seen.size).toBe(first.meta.total);
    const branches = body(await t.api.get('/api/v1/licensees/TX/9089631-B/affiliates?affiliate_role=branch'), AffiliatesResponse);
    expect(branches.data.every((a) => a.relationship_type === 'main_office')).toBe(true);
    expect(branches.meta.total).toBeGreaterThan(0);
  });

  it('when the three-level chain is walked then it reads agent -> branch -> brokerage -> designated broker', async () => {
    const res = body(await t.api.get(`/api/v1/license-credentials/${credentialId('TX', '406526-SA')}/hierarchy`), HierarchyResponse);
    expect(res.levels.map((l) => [l.depth, l.license_number, l.relationship_type])).toEqual([
      [1, '9057636-B', 'sponsoring_broker'],
      [2, '9089631-B', 'main_office'],
      [3, '185279-B', 'designated_broker'],
    ]);
    expect(res.terminated_by).toBe('top');
  });
});

describe('relationship shapes: diamonds and future-dated links', () => {
  const t = useApp(fixture('shapes'));
  const AGENT_ID = credentialId('TX', '1-SA');

  it('when two paths lead to the same supervisor then the walk lists both links, reaches the top and reports no cycle', async () => {
    const res = body(await t.api.get(`/api/v1/license-credentials/${AGENT_ID}/hierarchy`), HierarchyResponse);
    expect(res.levels.map((l) => [l.depth, l.license_number, l.supervises_license_credential_id])).toEqual([
      [1, '3-B', AGENT_ID], // newest link first within a level
      [1, '2-B', AGENT_ID],
      [2, '3-B', credentialId('TX', '2-B')],
    ]);
    expect(res).toMatchObject({ terminated_by: 'top', cycle_detected: false, reached_top: true });
  });

  it('when a link starts in the future then it is not current, and history lists it as scheduled', async () => {
    const supervisors = body(await t.api.get('/api/v1/licensees/TX/1-SA/supervisors'), SupervisorsResponse).data;
    expect(supervisors.map((s) => s.license_number).sort()).toEqual(['2-B', '3-B']);
    const affiliates = body(await t.api.get('/api/v1/licensees/TX/4-B/affiliates'), AffiliatesResponse);
    expect(affiliates.meta.total).toBe(0);
    const history = body(await t.api.get('/api/v1/licensees/TX/1-SA/affiliations?include_inactive=true'), AffiliationsResponse).data;
    expect(history.find((a) => a.supervisor_license_number === '4-B')?.status).toBe('scheduled');
    expect(body(await t.api.get('/api/v1/licensees/TX/1-SA/affiliations'), AffiliationsResponse).data.map((a) => a.supervisor_license_number).sort()).toEqual(['2-B', '3-B']);
    const inFuture = body(await t.api.get('/api/v1/licensees/TX/1-SA/affiliations?as_of=2099-06-01'), AffiliationsResponse).data;
    expect(inFuture.map((a) => a.supervisor_license_number).sort()).toEqual(['2-B', '3-B', '4-B']);
  });

  it('when a page lies far past the end then 200 with empty data, for search and affiliates alike', async () => {
    const search = await t.api.get('/api/v1/licensees?state=TX&page=100000&per_page=100');
    expect(search.status).toBe(200);
    expect(search.body).toEqual({ data: [], meta: { total: 4, page: 100000, per_page: 100 } });
    const affiliates = await t.api.get('/api/v1/licensees/TX/2-B/affiliates?page=99001&per_page=100');
    expect(affiliates.body).toEqual({ data: [], meta: { total: 1, page: 99001, per_page: 100 } });
  });
});

describe('affiliates in force as days pass with no write', () => {
  // The shapes fixture (4-B's link to 1-SA starts on 2099-01-01) and a link of 2-B's to 4-B that ends on 2099-06-01.
  let now = new Date('2026-11-26T12:00:00Z');
  const clock = clockOf(() => now);
  const ctx = {} as {
    graph: GraphAdapters;
    close: () => Promise<void>;
    get: (url: string) => Promise<{ total: number; ids: string[] }>;
    search: (url: string) => Promise<{ total: number; ids: string[] }>;
  };
  beforeAll(async () => {
    const { dir, remove } = tempDir('days-');
    try {
      fs.copyFileSync(path.join(fixture('shapes'), 'jurisdictions.csv'), path.join(dir, 'jurisdictions.csv'));
      fs.writeFileSync(path.join(dir, 'relationships.csv'), 'supervisor_state,supervisor_license_number,affiliate_state,affiliate_license_number,affiliate_role,relationship_type,effective_from,effective_to,source\nTX,2-B,TX,4-B,salesperson,sponsoring_broker,2020-01-01,2099-06-01,fixture\n');
      ctx.graph = (await testGraph(fixture('shapes'), dir)).graph;
    } finally {
      remove();
    }
    const side = await testStore({}, undefined, clock);
    const app = testApp(ctx.graph, side) as unknown as App;
    const { key } = (await side.accounts.createAccount({ email: 'days@example.com', plan: 'enterprise' })).key;
    ctx.get = async (url) => {
      const res = body(await request(app).get(url).set('Authorization', `Bearer ${key}`), AffiliatesResponse);
      return { total: res.meta.total, ids: res.data.map((a) => a.license_number) };
    };
    ctx.search = async (url) => {
      const res = body(await request(app).get(url).set('Authorization', `Bearer ${key}`), LicenseeListResponse);
      return { total: res.meta.total, ids: res.data.map((l) => l.license_number) };
    };
    ctx.close = async () => {
      await ctx.graph.close();
      await side.store.close();
    };
  });
  afterAll(() => ctx.close?.());

  /** What 2-B's and 4-B's affiliates pages answer, read twice: Neo4j moves what it keeps in force to the new day after the first read. */
  const pages = async () => {
    const read = async () => ({
      '2-B': await ctx.get('/api/v1/licensees/TX/2-B/affiliates'),
      '4-B': await ctx.get('/api/v1/licensees/TX/4-B/affiliates'),
      '2-B salespersons, page 2 of 1': await ctx.get('/api/v1/licensees/TX/2-B/affiliates?affiliate_role=salesperson&per_page=1&page=2'),
    });
    const first = await read();
    if (TEST_ENGINE === 'neo4j') {
      for (let i = 0; i < 100; i++) {
        const [row] = await ctx.graph.engine.read("MATCH (d:InForceDay {id: 'supervises'}) RETURN toString(d.date) AS day");
        if (row?.day === clock.today()) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await ctx.graph.engine.read("MATCH (d:InForceDay {id: 'supervises'}) RETURN toString(d.date) AS day"))[0]?.day).toBe(clock.today());
    }
    expect(await read()).toEqual(first);
    return first;
  };

  it('when a link starts, another ends and the clock goes back then each page follows the day', async () => {
    expect(await pages()).toEqual({
      '2-B': { total: 2, ids: ['1-SA', '4-B'] },
      '4-B': { total: 0, ids: [] },
      '2-B salespersons, page 2 of 1': { total: 2, ids: ['4-B'] },
    });
    now = new Date('2099-01-01T00:00:00Z');
    expect(await pages()).toEqual({
      '2-B': { total: 2, ids: ['1-SA', '4-B'] },
      '4-B': { total: 1, ids: ['1-SA'] },
      '2-B salespersons, page 2 of 1': { total: 2, ids: ['4-B'] },
    });
    now = new Date('2099-06-01T00:00:00Z');
    expect(await pages()).toEqual({
      '2-B': { total: 1, ids: ['1-SA'] },
      '4-B': { total: 1, ids: ['1-SA'] },
      '2-B salespersons, page 2 of 1': { total: 1, ids: [] },
    });
    now = new Date('2026-11-26T12:00:00Z');
    expect((await pages())['4-B']).toEqual({ total: 0, ids: [] });
  });

  it('when the clock crosses an effective_from and an effective_to then the brokerage search follows the day', async () => {
    // 2-B is BETA REALTY; 4-B is DORA LATER, whose link to 1-SA starts on 2099-01-01.
    const found = async () => ({
      beta: await ctx.search('/api/v1/licensees?state=TX&brokerage=beta'),
      dora: await ctx.search('/api/v1/licensees?state=TX&brokerage=dora'),
    });
    try {
      expect(await found()).toEqual({ beta: { total: 2, ids: ['1-SA', '4-B'] }, dora: { total: 0, ids: [] } });
      now = new Date('2099-01-01T00:00:00Z');
      expect(await found()).toEqual({ beta: { total: 2, ids: ['1-SA', '4-B'] }, dora: { total: 1, ids: ['1-SA'] } });
      now = new Date('2099-05-31T23:59:59Z');
      expect((await found()).beta).toEqual({ total: 2, ids: ['1-SA', '4-B'] });
      now = new Date('2099-06-01T00:00:00Z');
      expect(await found()).toEqual({ beta: { total: 1, ids: ['1-SA'] }, dora: { total: 1, ids: ['1-SA'] } });
      now = new Date('2026-11-26T12:00:00Z');
      expect(await found()).toEqual({ beta: { total: 2, ids: ['1-SA', '4-B'] }, dora: { total: 0, ids: [] } });
    } finally {
      now = new Date('2026-11-26T12:00:00Z');
    }
  });
});
