import request from 'supertest';
import type { App } from 'supertest/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import type { SideServices } from '../../src/compose/index.js';
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../../src/domain/plans.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { RateLimitedBody } from '../../src/http/common.schemas.js';
import { Account } from '../../src/modules/accounts/accounts.schemas.js';
import { VerifyResponse } from '../../src/modules/licensees/licensees.schemas.js';
import type { SqlStore } from '../../src/store/sql-store.js';
import { fixture, testApp, testGraph } from '../helpers/graph.js';
import { body } from '../helpers/http.js';
import { sideOf, postgresAvailable, postgresSchema, storeKinds } from '../helpers/stores.js';

const kinds = await storeKinds();
const VERIFY = '/api/v1/licensees/verify?state=TX&license_number=763827-SA';
// Windows of 20 s: every call of a test falls in its account's first window, however slow the machine.
const LIMITS: RateLimits = { ...DEFAULT_RATE_LIMITS, free: { perSecond: 100, burst: 100 }, starter: { perSecond: 1, burst: 20 } };
const MONTH = /^"monthly";q=(\d+);w=\d+$/;

describe.each(kinds)('the request rate per plan on $name', (kind) => {
  let graph: GraphAdapters;
  let store: SqlStore;
  let drop: () => Promise<void>;
  let side: SideServices;
  let app: App;
  beforeAll(async () => {
    ({ graph } = await testGraph(fixture('small')));
    ({ store, drop } = await kind.open());
    side = await sideOf(store, { RATE_LIMITS: LIMITS });
    app = testApp(graph, side) as unknown as App;
  });
  afterAll(async () => {
    await graph.close();
    await drop();
  });

  let n = 0;
  const account = async (plan: 'free' | 'starter') => {
    const created = await side.accounts.createAccount({ email: `rate${++n}@example.com`, plan });
    return { id: created.account.id, auth: { Authorization: `Bearer ${created.key.key}` } };
  };

  it('when an account calls past its rate then 429 names the rate, with Retry-After and both policies, the call is not metered, and another account is served', async () => {
    const busy = await account('starter');
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await request(app).get(VERIFY).set(busy.auth));
    for (const [i, res] of answers.entries()) {
      body(res, VerifyResponse);
      const [monthly, rate] = res.headers['ratelimit-policy'].split(', ');
      expect(monthly).toMatch(MONTH);
      expect(rate).toBe('"rate";q=20;w=20');
      expect(res.headers.ratelimit).toMatch(new RegExp(`^"monthly";r=${4999 - i};t=\\d+, "rate";r=${19 - i};t=(\\d+)$`));
    }

    const refused = await request(app).get(VERIFY).set(busy.auth);
    expect(body(refused, RateLimitedBody, 429)).toEqual({
      detail: expect.stringMatching(/^request rate of the starter plan exceeded: 1 a second, at most 20 at once; retry in \d+ s$/),
      limit: 'rate',
    });
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(20);
    expect(refused.headers['ratelimit-policy']).toMatch(/^"monthly";q=5000;w=\d+, "rate";q=20;w=20$/);
    // Both policies' state: the 20 calls served took 20 of the month's 5,000.
    expect(refused.headers.ratelimit).toMatch(new RegExp(`^"monthly";r=4980;t=\\d+, "rate";r=0;t=${wait}$`));
    // Calls that are not metered count against the rate too.
    expect(body(await request(app).get('/api/v1/account').set(busy.auth), RateLimitedBody, 429).limit).toBe('rate');

    await side.meter.flush();
    expect((await side.meter.usage((await side.accounts.accountById(busy.id))!)).used).toBe(20);

    const other = await account('starter');
    const served = await request(app).get('/api/v1/account').set(other.auth);
    body(served, Account);
    expect(served.headers['ratelimit-policy']).toBe('"rate";q=20;w=20');
    expect(served.headers.ratelimit).toMatch(/^"rate";r=19;t=\d+$/);
  });

  it('when a page on another origin goes past its rate then it can read the 429 and its Retry-After (CORS)', async () => {
    const cors = testApp(graph, side, { CORS_ORIGINS: '*' }) as unknown as App;
    const busy = await account('starter');
    for (let i = 0; i < 20; i++) expect((await request(cors).get('/api/v1/account').set(busy.auth).set('Origin', 'https://app.example.com')).status).toBe(200);
    const refused = await request(cors).get('/api/v1/account').set(busy.auth).set('Origin', 'https://app.example.com');
    expect(body(refused, RateLimitedBody, 429).limit).toBe('rate');
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    expect(refused.headers['access-control-expose-headers']).toMatch(/Retry-After/);
  });

  it('when a free account spends its monthly quota then 429 names the monthly limit, with both policies', async () => {
    const free = await account('free');
    for (let i = 0; i < 25; i++) expect((await request(app).get(VERIFY).set(free.auth)).status).toBe(200);
    const spent = await request(app).get(VERIFY).set(free.auth);
    expect(body(spent, RateLimitedBody, 429)).toEqual({ detail: expect.stringMatching(/^monthly quota of 25 lookups is spent/), limit: 'monthly' });
    expect(spent.headers['ratelimit-policy']).toMatch(/^"monthly";q=25;w=\d+, "rate";q=100;w=1$/);
    expect(spent.headers.ratelimit).toMatch(/^"monthly";r=0;t=\d+, "rate";r=\d+;t=1$/);
  });
});

describe.skipIf(!(await postgresAvailable()))('the request rate across processes on PostgreSQL', () => {
  let graph: GraphAdapters;
  const stores: SqlStore[] = [];
  let dropSchema: () => Promise<void>;
  beforeAll(async () => {
    ({ graph } = await testGraph(fixture('small')));
    const schema = await postgresSchema();
    dropSchema = schema.drop;
    for (let i = 0; i < 2; i++) stores.push(await openStore({ DATABASE_URL: schema.url, DATABASE_POOL_SIZE: 4 }));
  });
  afterAll(async () => {
    await graph.close();
    for (const s of stores) await s.close();
    await dropSchema();
  });

  it('when an account calls two processes in turn then together they serve its burst exactly, and each refuses the rest', async () => {
    const sides = await Promise.all(stores.map((s) => sideOf(s, { RATE_LIMITS: LIMITS })));
    const apps = sides.map((s) => testApp(graph, s) as unknown as App);
    const created = await sides[0].accounts.createAccount({ email: 'two@example.com', plan: 'starter' });
    const auth = { Authorization: `Bearer ${created.key.key}` };
    const statuses: number[][] = [[], []];
    for (let i = 0; i < 40; i++) statuses[i % 2].push((await request(apps[i % 2]).get(VERIFY).set(auth)).status);
    const served = statuses.flat().filter((s) => s === 200).length;
    expect(served).toBe(20);
    expect(statuses.flat().filter((s) => s === 429)).toHaveLength(20);
    // Both processes served some: the count is shared, not each process's own.
    expect(statuses.every((list) => list.includes(200) && list.includes(429))).toBe(true);
  });
});
