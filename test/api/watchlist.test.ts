import request from 'supertest';
import type { App } from 'supertest/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { credentialId } from '../../src/domain/identity.js';
import { Unwatched, WatchlistPage, WatchResult } from '../../src/modules/watchlist/watchlist.schemas.js';
import { fixture, testApp, testGraph, testStore } from '../helpers/graph.js';
import { body, errorDetail, validationErrors } from '../helpers/http.js';

describe('the watchlist', () => {
  let graph: GraphAdapters;
  let side: Awaited<ReturnType<typeof testStore>>;
  let app: App;
  beforeAll(async () => {
    ({ graph } = await testGraph(fixture('small')));
    side = await testStore();
    app = testApp(graph, side) as unknown as App;
  });
  afterAll(async () => {
    await graph?.close();
    await side?.store.close();
  });
  let n = 0;
  const account = async (plan: 'free' | 'starter') => {
    const { key } = await side.accounts.createAccount({ email: `watcher${++n}@example.com`, plan });
    return { Authorization: `Bearer ${key.key}` };
  };
  const items = (count: number, from = 0) => Array.from({ length: count }, (_, i) => ({ state: 'tx', license_number: `w-${from + i}` }));

  it('when licences are watched then they are listed, a repeat is counted once, and nothing is metered', async () => {
    const auth = await account('free');
    const added = body(await request(app).post('/api/v1/watchlist').set(auth).send({ items: [{ state: 'TX', license_number: '763827-sa' }, { state: 'tx', license_number: ' 763827-SA ' }, { state: 'FL', license_number: 'NOT-ON-FILE-1' }] }), WatchResult);
    expect(added).toEqual({ added: 2, already_watched: 0, watched: 2, limit: 25 });
    const again = body(await request(app).post('/api/v1/watchlist').set(auth).send({ items: [{ state: 'TX', license_number: '763827-SA' }] }), WatchResult);
    expect(again).toEqual({ added: 0, already_watched: 1, watched: 2, limit: 25 });
    const page = body(await request(app).get('/api/v1/watchlist').set(auth), WatchlistPage);
    expect(page.meta).toEqual({ total: 2, page: 1, per_page: 100 });
    expect(page.data.map((w) => [w.state, w.license_number, w.license_credential_id])).toEqual([
      ['FL', 'NOT-ON-FILE-1', credentialId('FL', 'NOT-ON-FILE-1')],
      ['TX', '763827-SA', credentialId('TX', '763827-SA')],
    ]);
    expect((await request(app).get('/api/v1/watchlist').set(auth)).headers.ratelimit).toBeUndefined();
    const usage = await request(app).get('/api/v1/account/usage').set(auth);
    expect(usage.body.used).toBe(0);
  });

  it('when a request would pass the plan\'s limit then 402 names the limit and nothing is added', async () => {
    const auth = await account('free');
    body(await request(app).post('/api/v1/watchlist').set(auth).send({ items: items(20) }), WatchResult);
    const over = await request(app).post('/api/v1/watchlist').set(auth).send({ items: items(10, 15).concat(items(5, 25)) });
    expect(errorDetail(over, 402)).toMatch(/free plan watches at most 25 licences: this account watches 20 and the request adds 10/);
    expect(body(await request(app).get('/api/v1/watchlist?per_page=1').set(auth), WatchlistPage).meta.total).toBe(20);
    // Exactly up to the limit is fine.
    expect(body(await request(app).post('/api/v1/watchlist').set(auth).send({ items: items(5, 20) }), WatchResult).watched).toBe(25);
  });

  it('when a licence is unwatched then it leaves the list; one not watched is 404', async () => {
    const auth = await account('starter');
    body(await request(app).post('/api/v1/watchlist').set(auth).send({ items: items(3) }), WatchResult);
    expect(body(await request(app).delete('/api/v1/watchlist/TX/W-1').set(auth), Unwatched)).toEqual({ state: 'TX', license_number: 'W-1', removed: true });
    expect(errorDetail(await request(app).delete('/api/v1/watchlist/TX/W-1').set(auth), 404)).toMatch(/not on this account's watchlist/);
    expect(body(await request(app).get('/api/v1/watchlist').set(auth), WatchlistPage).data.map((w) => w.license_number)).toEqual(['W-0', 'W-2']);
  });

  it('when the body is wrong then 422 says where, and another account\'s list is never seen', async () => {
    const auth = await account('starter');
    expect(validationErrors(await request(app).post('/api/v1/watchlist').set(auth).send({ items: [] })).map((d) => d.loc.join('.'))).toEqual(['body.items']);
    expect(validationErrors(await request(app).post('/api/v1/watchlist').set(auth).send({ items: items(1001) })).map((d) => d.loc.join('.'))).toEqual(['body.items']);
    expect(validationErrors(await request(app).post('/api/v1/watchlist').set(auth).send({ items: [{ state: 'TEX', license_number: '1' }] })).map((d) => d.loc.join('.'))).toEqual(['body.items.0.state']);
    expect(body(await request(app).get('/api/v1/watchlist').set(auth), WatchlistPage).meta.total).toBe(0);
    expect((await request(app).get('/api/v1/watchlist')).status).toBe(401);
  });
});
