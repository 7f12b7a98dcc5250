import { describe, expect, it } from 'vitest';
import { credentialId } from '../../src/domain/identity.js';
import {
  BatchVerifyResponse,
  LicenseeListResponse,
  LicenseeResponse,
  VerifyResponse,
} from '../../src/modules/licensees/licensees.schemas.js';
import { AffiliatesResponse } from '../../src/modules/relationships/relationships.schemas.js';
import { DEMO_SEEDS, fixture, useApp } from '../helpers/graph.js';
import { LICENSEE_FIELDS, body, errorDetail, validationErrors } from '../helpers/http.js';

describe('licensees over a small graph', () => {
  const t = useApp(fixture('small'));

  const search = async (qs: string) => body(await t.api.get(`/api/v1/licensees?${qs}`), LicenseeListResponse);

  describe('verify', () => {
    it('when the number is sent in another case and with spaces then the licence is verified with every spec field', async () => {
      const res = body(await t.api.get('/api/v1/licensees/verify').query({ state: 'tx', license_number: ' 763827 -sa ' }), VerifyResponse);
      expect(res.verified).toBe(true);
      const l = res.licensee!;
      expect(Object.keys(l).sort()).toEqual(LICENSEE_FIELDS);
      expect(l).toMatchObject({
        id: credentialId('TX', '763827-SA'),
        license_number: '763827-SA',
        license_type: 'salesperson',
        license_type_display: 'Sales Agent',
        status: 'Probation - Active',
        state: 'TX',
        brokerage: 'ACME REALTY LLC',
        brokerage_source: 'verified_supervision',
        brokerage_confidence: 'verified',
        relationship_coverage: 'verified_graph',
        supervision_empty_reason: null,
        supervising_brokerages: ['ACME REALTY LLC'],
        employment_type: 'sponsored',
        current_affiliate_roles: ['salesperson'],
        city: 'Houston',
        disciplinary_actions: [],
        last_verified: '2026-11-01T06:00:00.000Z',
      });
      expect(l.supervising_brokerages_detail).toEqual([
        {
          name: 'ACME REALTY LLC',
          license_number: '100001-B',
          address: { kind: 'mailing', line1: '1 Main St', line2: 'Suite 5', city: 'Austin', county: 'Travis', region: 'TX', postal_code: '78701', country: 'US' },
        },
      ]);
      expect(l.designated_brokers.map((d) => d.license_number)).toEqual(['200001-B']);
      expect(l.designated_broker?.name).toBe('DANA QUINN');
      expect(l.address).toMatchObject({ kind: 'mailing', line1: '3 Elm St', city: 'Houston' });
      expect(l.data_source_notes).toEqual(['Source: fixture, snapshot of 2026-11-01', 'Name published in upper case only']);
    });

    it('when no licence matches then it answers 200 with verified false and a null licensee', async () => {
      const res = body(await t.api.get('/api/v1/licensees/verify?state=TX&license_number=NOPE-1'), VerifyResponse);
      expect(res).toMatchObject({ verified: false, licensee: null, verdict: 'not_found' });
    });

    it('when the licence is revoked then it is still verified and its status says so', async () => {
      const res = body(await t.api.get('/api/v1/licensees/verify?state=TX&license_number=763829-SA'), VerifyResponse);
      expect(res.verified).toBe(true);
      expect(res.licensee?.status).toBe('Revoked');
      expect(res.licensee?.supervision_empty_reason).toBe('authoritative_absence');
    });

    it('when state or license_number is missing or malformed then 422 names each field', async () => {
      const detail = validationErrors(await t.api.get('/api/v1/licensees/verify?state=Texas'));
      expect(detail.map((d) => d.loc)).toEqual([['query', 'state'], ['query', 'license_number']]);
      expect(detail[1]).toMatchObject({ type: 'missing', msg: 'Field required' });
      const blank = validationErrors(await t.api.get('/api/v1/licensees/verify?state=TX&license_number=%20%20'));
      expect(blank[0].loc).toEqual(['query', 'license_number']);
    });

    it('when a parameter is repeated then 422 says it must be a single string', async () => {
      const detail = validationErrors(await t.api.get('/api/v1/licensees/verify?state=TX&state=FL&license_number=1'));
      expect(detail[0]).toMatchObject({ loc: ['query', 'state'], type: 'string_type' });
    });
  });

  describe('get', () => {
    it('when the licence exists then data is the licensee, state and number in any case', async () => {
      const res = body(await t.api.get('/api/v1/licensees/ny/10301213690'), LicenseeResponse);
      expect(res.data).toMatchObject({
        state: 'NY',
        brokerage: 'HUDSON HOMES REALTY',
        brokerage_source: 'business_name',
        brokerage_confidence: 'source_reported',
        relationship_coverage: 'source_context_only',
        supervision_empty_reason: 'source_context_only',
        supervising_brokerages: [],
        designated_brokers: [],
        designated_broker: null,
      });
      expect(res.data.address?.kind).toBe('business');
    });

    it('when the licence is unknown then 404 with a detail', async () => {
      expect(errorDetail(await t.api.get('/api/v1/licensees/TX/000-NONE'), 404)).toMatch(/000-NONE/);
    });

    it('when the state is not two letters then 422 on the path', async () => {
      expect(validationErrors(await t.api.get('/api/v1/licensees/TEX/1'))[0].loc).toEqual(['path', 'state']);
    });

    it('when the licence is a brokerage then its own designated broker is listed', async () => {
      const res = body(await t.api.get('/api/v1/licensees/TX/100001-b'), LicenseeResponse);
      expect(res.data.designated_broker?.license_number).toBe('200001-B');
      expect(res.data.current_affiliate_roles).toEqual(['brokerage']);
      expect(res.data.brokerage).toBeNull();
    });
  });

  describe('batch', () => {
    it('when items mix hits and misses then results keep input order and echo the input', async () => {
      const licenses = [
        { state: 'ny', license_number: '00055592' },
        { state: 'TX', license_number: 'missing' },
        { state: 'tx', license_number: '763827-sa' },
        { state: 'wy', license_number: '1' },
        { state: 'NY', license_number: '00055592' },
      ];
      const res = body(await t.api.post('/api/v1/licensees/batch').send({ licenses }), BatchVerifyResponse);
      expect(res.data.map((r) => [r.state, r.license_number, r.verified])).toEqual([
        ['ny', '00055592', true],
        ['TX', 'missing', false],
        ['tx', '763827-sa', true],
        ['wy', '1', false],
        ['NY', '00055592', true],
      ]);
      expect(res.data[1].licensee).toBeNull();
      expect(res.data[2].licensee?.license_number).toBe('763827-SA');
    });

    it('when the list is empty or over 100 then 422 on body.licenses', async () => {
      expect(validationErrors(await t.api.post('/api/v1/licensees/batch').send({ licenses: [] }))[0]).toMatchObject({
        loc: ['body', 'licenses'],
        type: 'too_short',
      });
      const many = Array.from({ length: 101 }, (_, i) => ({ state: 'TX', license_number: String(i) }));
      expect(validationErrors(await t.api.post('/api/v1/licensees/batch').send({ licenses: many }))[0].type).toBe('too_long');
    });

    it('when an item has a 3-letter state or a 129-character number then 422 points at the item', async () => {
      const detail = validationErrors(
        await t.api
          .post('/api/v1/licensees/batch')
          .send({ licenses: [{ state: 'TX', license_number: '1' }, { state: 'TXX', license_number: 'x'.repeat(129) }] }),
      );
      expect(detail.map((d) => d.loc)).toEqual([
        ['body', 'licenses', 1, 'state'],
        ['body', 'licenses', 1, 'license_number'],
      ]);
    });

    it('when the body is not JSON then 422 json_invalid on body', async () => {
      const res = await t.api.post('/api/v1/licensees/batch').set('content-type', 'application/json').send('{"licenses": [');
      expect(validationErrors(res)[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
    });

    it('when the body is JSON null or an array then 422 says an object is expected', async () => {
      for (const raw of ['null', '[1,2]', '"x"']) {
        const res = await t.api.post('/api/v1/licensees/batch').set('content-type', 'application/json').send(raw);
        expect(validationErrors(res)[0]).toMatchObject({ loc: ['body'], type: 'object_type' });
      }
    });

    it('when the body is missing then 422 says body is required', async () => {
      expect(validationErrors(await t.api.post('/api/v1/licensees/batch'))[0]).toMatchObject({ loc: ['body'], type: 'missing' });
    });

    it('when the body is larger than the limit then 413 with a detail', async () => {
      const huge = JSON.stringify({ licenses: [{ state: 'TX', license_number: 'x'.repeat(200_000) }] });
      expect(errorDetail(await t.api.post('/api/v1/licensees/batch').set('content-type', 'application/json').send(huge), 413)).toMatch(/limit/);
    });
  });

  describe('search', () => {
    it('when name terms come in any order, case and without accents then the accented name matches', async () => {
      const res = await search('state=tx&name=MUNOZ%20jose');
      expect(res.data.map((l) => l.license_number)).toEqual(['763827-SA']);
      expect(res.meta).toEqual({ total: 1, page: 1, per_page: 25 });
    });

    it('when a name term matches nothing then no result, though the other term matches', async () => {
      expect((await search('state=TX&name=jose%20xyz')).meta.total).toBe(0);
    });

    it('when first_name, last_name, business_name and city filter then each matches its own field', async () => {
      expect((await search('state=TX&first_name=zo')).data.map((l) => l.license_number)).toEqual(['763828-SA']);
      expect((await search('state=TX&last_name=zo')).data).toEqual([]);
      expect((await search('state=TX&business_name=acme')).data.map((l) => l.license_number)).toEqual(['100001-B']);
      expect((await search('state=TX&city=housT')).data.map((l) => l.license_number)).toEqual(['763827-SA']);
    });

    it('when status filters then published statuses map to one filter value each', async () => {
      const numbers = async (status: string) => (await search(`state=TX&status=${status}&per_page=100`)).data.map((l) => l.license_number).sort();
      expect(await numbers('active')).toEqual(['100001-B', '200001-B', '300001-B', '763827-SA', '900001-B']);
      expect(await numbers('expired')).toEqual(['763828-SA']);
      expect(await numbers('inactive')).toEqual(['763829-SA']);
      expect(await numbers('suspended')).toEqual(['900002-B']);
    });

    it('when license_type filters then only that normalized type comes back', async () => {
      const res = await search('state=TX&license_type=brokerage');
      expect(res.data.map((l) => l.license_type)).toEqual(['brokerage']);
    });

    it('when brokerage filters then agents of a verified supervisor and of a business-name brokerage match', async () => {
      expect((await search('state=TX&brokerage=acme')).data.map((l) => l.license_number)).toEqual(['763827-SA']);
      expect((await search('state=NY&brokerage=hudson%20homes')).meta.total).toBe(2);
      expect((await search('state=TX&brokerage=old%20broker')).meta.total).toBe(0);
    });

    it('when paging then pages never overlap, the order is stable and total is exact', async () => {
      const all = (await search('state=TX&per_page=100')).data.map((l) => l.id);
      expect(all).toHaveLength(8);
      const pages = [];
      for (let p = 1; p <= 3; p++) pages.push(...(await search(`state=TX&per_page=3&page=${p}`)).data.map((l) => l.id));
      expect(pages).toEqual(all);
      const names = (await search('state=TX&per_page=100')).data.map((l) => l.last_name ?? l.business_name);
      expect(names.slice(0, 3)).toEqual(['ACME REALTY LLC', 'ADAMS', 'BROKER']);
    });

    it('when the page is past the end then 200 with empty data and the real total', async () => {
      const res = await search('state=TX&page=99');
      expect(res.data).toEqual([]);
      expect(res.meta).toEqual({ total: 8, page: 99, per_page: 25 });
    });

    it('when the page is any number validation lets through then 200 with empty data, for every search form', async () => {
      // Past 2^31 a Neo4j list index overflows, and past 2^53 / per_page the offset is no longer an integer.
      for (const page of ['1000000000', '2147483648', '4294967297', String(Number.MAX_SAFE_INTEGER)]) {
        for (const q of ['state=TX', 'state=TX&name=ada', 'state=TX&last_name=a&brokerage=acme', 'state=TX&city=austin&status=active']) {
          const res = body(await t.api.get(`/api/v1/licensees?${q}&page=${page}&per_page=100`), LicenseeListResponse);
          expect(res.data, `${q} page ${page}`).toEqual([]);
          expect(res.meta.page).toBe(Number(page));
        }
        const legacy = body(await t.api.get(`/api/v1/licensees/search?last_name=a&page=${page}`), LicenseeListResponse);
        expect(legacy.data, `legacy page ${page}`).toEqual([]);
        const raw = await t.api.get(`/api/v1/licenses/search?state=TX&name=a&page=${page}`);
        expect(raw.status, `raw page ${page}`).toBe(200);
        const affiliates = body(await t.api.get(`/api/v1/licensees/TX/100001-B/affiliates?page=${page}&per_page=100`), AffiliatesResponse);
        expect(affiliates.data, `affiliates page ${page}`).toEqual([]);
      }
    });

    it('when state is missing or page, per_page, status or license_type are out of range then 422 for each', async () => {
      const detail = validationErrors(await t.api.get('/api/v1/licensees?page=0&per_page=101&status=gone&license_type=wizard'));
      expect(detail.map((d) => d.loc[1]).sort()).toEqual(['license_type', 'page', 'per_page', 'state', 'status']);
      expect(validationErrors(await t.api.get('/api/v1/licensees?state=TX&page=1.5'))[0].loc).toEqual(['query', 'page']);
      expect(validationErrors(await t.api.get('/api/v1/licensees?state=TX&per_page=abc'))[0].loc).toEqual(['query', 'per_page']);
    });

    it('when a text filter holds more than 8 distinct terms then 422; repeated terms count once', async () => {
      const nine = 'a b c d e f g h i';
      expect(validationErrors(await t.api.get('/api/v1/licensees').query({ state: 'TX', name: nine }))[0]).toMatchObject({
        loc: ['query', 'name'],
        msg: 'must hold at most 8 terms',
      });
      expect((await search(`state=TX&name=${encodeURIComponent('jose '.repeat(30))}`)).meta.total).toBe(1);
    });

    it('when the state has no records then 200 with empty data', async () => {
      expect(await search('state=WY')).toEqual({ data: [], meta: { total: 0, page: 1, per_page: 25 } });
    });
  });
});

describe('licensees over the demo dataset', () => {
  const t = useApp(DEMO_SEEDS);

  it('when one number exists in two states then each state answers with its own licence', async () => {
    const fl = body(await t.api.get('/api/v1/licensees/FL/01234567'), LicenseeResponse).data;
    const ca = body(await t.api.get('/api/v1/licensees/CA/01234567'), LicenseeResponse).data;
    expect(fl.state).toBe('FL');
    expect(ca.state).toBe('CA');
    expect(fl.id).not.toBe(ca.id);
    expect(ca.relationship_coverage).toBe('verified_graph_partial');
  });

  it('when every status filter is used in TX, FL and CA then each finds records', async () => {
    for (const state of ['TX', 'FL', 'CA']) {
      for (const status of ['active', 'inactive', 'expired', 'suspended']) {
        const res = body(await t.api.get(`/api/v1/licensees?state=${state}&status=${status}&per_page=100`), LicenseeListResponse);
        expect(res.meta.total, `${state} ${status}`).toBeGreaterThan(0);
        expect(res.data.length).toBe(Math.min(100, res.meta.total));
      }
    }
  });

  it('when paging through a whole state then every record appears once and the total matches', async () => {
    const first = body(await t.api.get('/api/v1/licensees?state=TX&per_page=100'), LicenseeListResponse);
    const ids = new Set(first.data.map((l) => l.id));
    for (let page = 2; (page - 1) * 100 < first.meta.total; page++) {
      const res = body(await t.api.get(`/api/v1/licensees?state=TX&per_page=100&page=${page}`), LicenseeListResponse);
      for (const l of res.data) {
        expect(ids.has(l.id)).toBe(false);
        ids.add(l.id);
      }
    }
    expect(ids.size).toBe(first.meta.total);
  });

  it('when an accented demo name is searched without accents then it is found', async () => {
    const res = body(await t.api.get('/api/v1/licensees?state=FL&name=zoe%20bronte'), LicenseeListResponse);
    expect(res.data.map((l) => l.full_name)).toContain('Zoë Brontë');
  });

  it('when a batch of 100 demo licences is verified then all are found in order', async () => {
    const list = body(await t.api.get('/api/v1/licensees?state=TX&per_page=100'), LicenseeListResponse).data;
    const licenses = list.map((l) => ({ state: 'TX', license_number: l.license_number.toLowerCase() }));
    const res = body(await t.api.post('/api/v1/licensees/batch').send({ licenses }), BatchVerifyResponse);
    expect(res.data.map((r) => r.licensee?.id)).toEqual(list.map((l) => l.id));
  });
});
