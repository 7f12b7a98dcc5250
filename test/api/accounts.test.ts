import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from 'supertest/types.js';
import { z } from 'zod';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { Account, ApiKey, CreatedApiKey, DeletedApiKey, Usage } from '../../src/modules/accounts/accounts.schemas.js';
import { usagePeriod } from '../../src/domain/plans.js';
import { CoverageResponse } from '../../src/modules/coverage/coverage.schemas.js';
import { BatchVerifyResponse, VerifyResponse } from '../../src/modules/licensees/licensees.schemas.js';
import type { SqlStore } from '../../src/store/sql-store.js';
import { fixture, testApp, testGraph } from '../helpers/graph.js';
import { body, errorDetail, validationErrors } from '../helpers/http.js';
import { sideOf, storeKinds } from '../helpers/stores.js';
import type { SideServices } from '../../src/compose/index.js';

const kinds = await storeKinds();
const VERIFY = '/api/v1/licensees/verify?state=TX&license_number=763827-SA';

describe.each(kinds)('accounts, keys and metering on $name', (kind) => {
  let graph: GraphAdapters;
  let store: SqlStore;
  let drop: () => Promise<void>;
  let side: SideServices;
  let app: App;
  beforeAll(async () => {
    ({ graph } = await testGraph(fixture('small')));
    ({ store, drop } = await kind.open());
    side = await sideOf(store);
    app = testApp(graph, side) as unknown as App;
  });
  afterAll(async () => {
    await graph.close();
    await drop();
  });

  let n = 0;
  const account = async (plan: 'free' | 'starter' | 'growth' | 'enterprise', extra: { trialPlan?: 'growth'; trialEndsAt?: string } = {}) => {
    const created = await side.accounts.createAccount({ email: `user${++n}@example.com`, plan, ...extra });
    return { id: created.account.id, key: created.key.key, keyId: created.key.id, auth: { Authorization: `Bearer ${created.key.key}` } };
  };
  const used = async (accountId: string) =>
    Number((await store.query<{ used: number }>('SELECT used FROM usage_totals WHERE account_id = $1', [accountId]))[0]?.used ?? 0);

  describe('authentication', () => {
    it('when no key is sent then 401 with a Bearer challenge and no error code', async () => {
      const res = await request(app).get(VERIFY);
      expect(errorDetail(res, 401)).toMatch(/missing API key/);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="licensee-verification-service"');
    });

    it('when the key is malformed, unknown or revoked then 401 invalid_token saying which', async () => {
      const a = await account('starter');
      const second = await side.accounts.createKey(a.id, null);
      await side.accounts.revokeKey(a.id, second.id);
      const cases: [string, RegExp][] = [
        ['Bearer not-a-key', /malformed/],
        [`Basic ${a.key}`, /malformed/],
        [`Bearer lvs_live_${'x'.repeat(32)}`, /unknown API key/],
        [`Bearer ${second.key}`, /revoked/],
      ];
      for (const [header, detail] of cases) {
        const res = await request(app).get(VERIFY).set('Authorization', header);
        expect(errorDetail(res, 401)).toMatch(detail);
        expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="licensee-verification-service", error="invalid_token", error_description="/);
      }
    });

    it('when coverage or health is called without a key then it answers; every other /api/v1 route needs one', async () => {
      body(await request(app).get('/api/v1/coverage'), CoverageResponse);
      expect((await request(app).get('/health')).status).toBe(200);
      for (const path of ['/api/v1/states', '/api/v1/sources', '/api/v1/sources/coverage', '/api/v1/readiness', '/api/v1/account', '/api/v1/api-keys', '/api/v1/licenses/license-type-counts']) {
        expect((await request(app).get(path)).status, path).toBe(401);
      }
    });
  });

  describe('account and keys', () => {
    it('when the account is read then it shows the plan, the trial in force and the quota', async () => {
      const a = await account('free', { trialPlan: 'growth', trialEndsAt: new Date(Date.now() + 86_400_000).toISOString() });
      const res = body(await request(app).get('/api/v1/account').set(a.auth), Account);
      expect(res).toMatchObject({ id: a.id, plan: 'free', effective_plan: 'growth', monthly_quota: 50_000, batch_enabled: true });
      expect(res.trial).toMatchObject({ plan: 'growth', active: true });
    });

    it('when keys are created and listed then the raw key appears only at creation and listing shows the hash', async () => {
      const a = await account('starter');
      const created = body(await request(app).post('/api/v1/api-keys').set(a.auth).send({ label: 'ci' }), CreatedApiKey);
      expect(created.key).toMatch(/^lvs_live_[A-Za-z0-9_-]{32}$/);
      expect(created).toMatchObject({ label: 'ci', prefix: 'lvs_live_', last_four: created.key.slice(-4) });
      body(await request(app).post('/api/v1/api-keys').set(a.auth).send({ label: null }), CreatedApiKey);
      const noBody = body(await request(app).post('/api/v1/api-keys').set(a.auth), CreatedApiKey);
      expect(noBody.label).toBeNull();
      const listed = body(await request(app).get('/api/v1/api-keys').set(a.auth), z.array(ApiKey));
      expect(listed).toHaveLength(4);
      expect(JSON.stringify(listed)).not.toContain(created.key);
      expect(listed.find((k) => k.id === created.id)?.key_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
      // The new key works at once.
      body(await request(app).get('/api/v1/account').set('Authorization', `Bearer ${created.key}`), Account);
    });

    it('when a key is deleted then it stops working at once; unknown, foreign, malformed and last keys are refused', async () => {
      const a = await account('starter');
      const b = await account('starter');
      const extra = await side.accounts.createKey(a.id, 'temp');
      const deleted = body(await request(app).delete(`/api/v1/api-keys/${extra.id}`).set(a.auth), DeletedApiKey);
      expect(deleted).toMatchObject({ id: extra.id, revoked: true });
      expect((await request(app).get('/api/v1/account').set('Authorization', `Bearer ${extra.key}`)).status).toBe(401);
      errorDetail(await request(app).delete(`/api/v1/api-keys/${extra.id}`).set(a.auth), 404);
      errorDetail(await request(app).delete(`/api/v1/api-keys/${b.keyId}`).set(a.auth), 404);
      errorDetail(await request(app).delete('/api/v1/api-keys/00000000-0000-4000-8000-000000000000').set(a.auth), 404);
      expect(validationErrors(await request(app).delete('/api/v1/api-keys/nope').set(a.auth))[0].loc).toEqual(['path', 'key_id']);
      expect(errorDetail(await request(app).delete(`/api/v1/api-keys/${a.keyId}`).set(a.auth), 409)).toMatch(/last active key/);
      expect((await request(app).get('/api/v1/account').set(a.auth)).status).toBe(200);
    });

    it('when the label is too long or an unknown field is sent then 422', async () => {
      const a = await account('starter');
      validationErrors(await request(app).post('/api/v1/api-keys').set(a.auth).send({ label: 'x'.repeat(101) }));
      expect(validationErrors(await request(app).post('/api/v1/api-keys').set(a.auth).send({ name: 'x' }))[0].type).toBe('extra_forbidden');
    });
  });

  describe('metering', () => {
    it('when a free account calls batch then 402 says the plan lacks it, and nothing is counted', async () => {
      const a = await account('free');
      const res = await request(app).post('/api/v1/licensees/batch').set(a.auth).send({ licenses: [{ state: 'TX', license_number: '1' }] });
      expect(errorDetail(res, 402)).toMatch(/free plan does not include batch/);
      expect(res.headers['ratelimit-policy']).toMatch(/^"monthly";q=25;w=\d+$/);
      expect(res.headers.ratelimit).toMatch(/^"monthly";r=25;t=\d+$/);
      expect(await used(a.id)).toBe(0);
    });

    it('when lookups answer 200 or 404 they count; 422 does not; non-lookups never do; usage shows it by endpoint', async () => {
      const a = await account('free');
      const ok = await request(app).get(VERIFY).set(a.auth);
      body(ok, VerifyResponse);
      expect(ok.headers['ratelimit-policy']).toBe(`"monthly";q=25;w=${Math.round((usagePeriod(new Date()).resets.getTime() - usagePeriod(new Date()).starts.getTime()) / 1000)}`);
      expect(ok.headers.ratelimit).toMatch(/^"monthly";r=24;t=\d+$/);
      errorDetail(await request(app).get('/api/v1/licensees/TX/NOPE').set(a.auth), 404);
      validationErrors(await request(app).get('/api/v1/licensees?state=TX&page=0').set(a.auth));
      const states = await request(app).get('/api/v1/states').set(a.auth);
      expect(states.headers.ratelimit).toBeUndefined();
      const usage = body(await request(app).get('/api/v1/account/usage').set(a.auth), Usage);
      expect(usage).toMatchObject({ plan: 'free', quota: 25, used: 2, remaining: 23, period: usagePeriod(new Date()).period });
      expect(usage.by_endpoint).toEqual({ verifyLicense: 1, getLicensee: 1 });
      // Calls are served from a lease; the flush gives the unused units back to the store.
      await side.meter.flush();
      expect(await used(a.id)).toBe(2);
    });

    it('when the free quota is spent then 429 with Retry-After and RateLimit r=0, and the refused call is not counted', async () => {
      const a = await account('free');
      await store.query('INSERT INTO usage_totals (account_id, period, used) VALUES ($1, $2, 25)', [a.id, usagePeriod(new Date()).period]);
      const res = await request(app).get(VERIFY).set(a.auth);
      expect(errorDetail(res, 429)).toMatch(/monthly quota of 25 lookups is spent/);
      const retry = Number(res.headers['retry-after']);
      expect(retry).toBeGreaterThan(0);
      expect(res.headers.ratelimit).toBe(`"monthly";r=0;t=${retry}`);
      expect(await used(a.id)).toBe(25);
    });

    it('when a lookup is repeated with If-None-Match then each 304 costs what its 200 would, HEAD too, and a spent quota refuses it', async () => {
      const a = await account('free');
      await store.query('INSERT INTO usage_totals (account_id, period, used) VALUES ($1, $2, 19)', [a.id, usagePeriod(new Date()).period]);
      const first = await request(app).get(VERIFY).set(a.auth);
      body(first, VerifyResponse);
      const etag = first.headers.etag;
      expect(etag).toBeTruthy();
      expect((await request(app).head(VERIFY).set(a.auth)).headers.ratelimit).toMatch(/^"monthly";r=4;/);
      for (const left of [3, 2, 1, 0]) {
        const res = await request(app).get(VERIFY).set(a.auth).set('If-None-Match', etag);
        expect(res.status).toBe(304);
        expect(res.headers.ratelimit).toMatch(new RegExp(`^"monthly";r=${left};`));
      }
      const refused = await request(app).get(VERIFY).set(a.auth).set('If-None-Match', etag);
      expect(errorDetail(refused, 429)).toMatch(/quota of 25 lookups is spent/);
      const usage = body(await request(app).get('/api/v1/account/usage').set(a.auth), Usage);
      expect(usage).toMatchObject({ used: 25, remaining: 0 });
      expect(usage.by_endpoint).toEqual({ verifyLicense: 6 });
      await side.meter.flush();
      expect(await used(a.id)).toBe(25);
    });

    it('when 50 calls race on a free key with 5 lookups left then exactly 5 succeed', async () => {
      const a = await account('free');
      await store.query('INSERT INTO usage_totals (account_id, period, used) VALUES ($1, $2, 20)', [a.id, usagePeriod(new Date()).period]);
      const statuses = await Promise.all(Array.from({ length: 50 }, () => request(app).get(VERIFY).set(a.auth).then((r) => r.status)));
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(45);
      await side.meter.flush();
      expect(await used(a.id)).toBe(25);
    });

    it('when two instances share one store then together they never exceed the free quota', async () => {
      const a = await account('free');
      await store.query('INSERT INTO usage_totals (account_id, period, used) VALUES ($1, $2, 18)', [a.id, usagePeriod(new Date()).period]);
      const other = await sideOf(store);
      const app2 = testApp(graph, other) as unknown as App;
      const calls = Array.from({ length: 40 }, (_, i) => request(i % 2 ? app : app2).get(VERIFY).set(a.auth).then((r) => r.status));
      const statuses = await Promise.all(calls);
      expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(7);
      await Promise.all([side.meter.flush(), other.meter.flush()]);
      const ok = statuses.filter((s) => s === 200).length;
      expect(await used(a.id)).toBe(18 + ok);
      // With the leases given back, the rest of the quota is served.
      const more = await Promise.all(Array.from({ length: 10 }, () => request(app).get(VERIFY).set(a.auth).then((r) => r.status)));
      expect(ok + more.filter((s) => s === 200).length).toBe(7);
    });

    it('when a paid account calls then usage is counted in memory, shown at once and flushed to the store', async () => {
      const a = await account('starter');
      const batch = await request(app)
        .post('/api/v1/licensees/batch')
        .set(a.auth)
        .send({ licenses: Array.from({ length: 100 }, (_, i) => ({ state: 'TX', license_number: String(i) })) });
      body(batch, BatchVerifyResponse);
      expect(batch.headers.ratelimit).toMatch(/^"monthly";r=4999;t=\d+$/);
      await request(app).get(VERIFY).set(a.auth);
      const usage = body(await request(app).get('/api/v1/account/usage').set(a.auth), Usage);
      expect(usage).toMatchObject({ plan: 'starter', quota: 5000, used: 2, remaining: 4998 });
      expect(usage.by_endpoint).toEqual({ batchVerifyLicenses: 1, verifyLicense: 1 });
      expect(await used(a.id)).toBe(0);
      await side.meter.flush();
      expect(await used(a.id)).toBe(2);
      const rows = await store.query<{ endpoint: string; calls: number }>('SELECT endpoint, calls FROM usage_by_endpoint WHERE account_id = $1 ORDER BY endpoint', [a.id]);
      expect(rows).toEqual([{ endpoint: 'batchVerifyLicenses', calls: 1 }, { endpoint: 'verifyLicense', calls: 1 }]);
      const [key] = await store.query<{ last_used_at: unknown }>('SELECT last_used_at FROM api_keys WHERE id = $1', [a.keyId]);
      expect(key.last_used_at).not.toBeNull();
    });

    it('when a key makes only calls that are not metered (or that fail) then its last_used_at is stamped at the next flush all the same', async () => {
      const a = await account('growth');
      const second = await side.accounts.createKey(a.id, 'idle');
      const lastUsed = async (id: string) => (await store.query<{ last_used_at: Date | null }>('SELECT last_used_at FROM api_keys WHERE id = $1', [id]))[0].last_used_at;
      for (const path of ['/api/v1/watchlist', '/api/v1/watchlist/states', '/api/v1/webhooks', '/api/v1/account', '/api/v1/api-keys', '/api/v1/sources']) {
        expect((await request(app).get(path).set(a.auth)).status, path).toBe(200);
      }
      expect((await request(app).get('/api/v1/licensees/verify?state=TX').set(a.auth)).status).toBe(422);
      await side.meter.flush();
      expect(await lastUsed(a.keyId)).toBeInstanceOf(Date);
      expect(await lastUsed(second.id)).toBeNull();
      const keys = body(await request(app).get('/api/v1/api-keys').set(a.auth), z.array(ApiKey));
      expect(keys.find((k) => k.id === a.keyId)?.last_used_at).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(keys.find((k) => k.id === second.id)?.last_used_at).toBeNull();
      expect(await used(a.id)).toBe(0);
    });

    it('when calls are made then usage shows them by day, from memory before the flush and from the store after, this month only', async () => {
      const a = await account('growth');
      const { starts } = usagePeriod(new Date());
      const first = starts.toISOString().slice(0, 10);
      const before = new Date(starts.getTime() - 86_400_000).toISOString().slice(0, 10);
      await store.query('INSERT INTO usage_by_day (account_id, day, calls) VALUES ($1, $2::date, 5), ($1, $3::date, 9)', [a.id, first, before]);
      await request(app).get(VERIFY).set(a.auth);
      await request(app).get(VERIFY).set(a.auth);
      const today = new Date().toISOString().slice(0, 10);
      const expected = today === first ? { [first]: 7 } : { [first]: 5, [today]: 2 };
      const inMemory = body(await request(app).get('/api/v1/account/usage').set(a.auth), Usage);
      expect(inMemory.by_day).toEqual(expected);
      expect(Object.keys(inMemory.by_day)).toEqual(Object.keys(expected).sort());
      await side.meter.flush();
      const stored = await store.query<{ calls: number }>('SELECT calls FROM usage_by_day WHERE account_id = $1 AND day = $2::date', [a.id, today]);
      expect(stored).toEqual([{ calls: today === first ? 7 : 2 }]);
      expect(body(await request(app).get('/api/v1/account/usage').set(a.auth), Usage).by_day).toEqual(expected);
    });

    it('when a paid account has used its quota then 429 until the month resets', async () => {
      const a = await account('starter');
      await store.query('INSERT INTO usage_totals (account_id, period, used) VALUES ($1, $2, 5000)', [a.id, usagePeriod(new Date()).period]);
      expect((await request(app).get(VERIFY).set(a.auth)).status).toBe(429);
    });

    it('when a key is revoked by another instance then this one refuses it within a second', async () => {
      const a = await account('starter');
      const other = await side.accounts.createKey(a.id, 'other');
      const otherInstance = await sideOf(store);
      await request(app).get('/api/v1/account').set('Authorization', `Bearer ${other.key}`).expect(200);
      await otherInstance.accounts.operatorRevokeKey(other.id);
      await new Promise((r) => setTimeout(r, 1050));
      expect((await request(app).get('/api/v1/account').set('Authorization', `Bearer ${other.key}`)).status).toBe(401);
    });
  });
});
