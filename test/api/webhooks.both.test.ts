import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { Webhook } from 'standardwebhooks';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { refreshOf } from '../../src/compose/index.js';
import type { Config } from '../../src/config.js';
import { clockOf } from '../../src/domain/clock.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { refresh } from '../../src/ingest/refresh/refresh.js';
import { resolveFormat } from '../../src/ingest/sources/index.js';
import { ChangeFeed } from '../../src/modules/changes/changes.schemas.js';
import { Followed, FollowedList, Unfollowed, WatchResult } from '../../src/modules/watchlist/watchlist.schemas.js';
import { Deleted, Delivery, DeliveryPage, Endpoint, EndpointList, EndpointWithSecret, WebhookPayload } from '../../src/modules/webhooks/webhooks.schemas.js';
import { TEST_ENGINE, files, testApp, testGraph, testStore } from '../helpers/graph.js';
import { body, errorDetail, validationErrors } from '../helpers/http.js';
import { SHARED_SOURCES, TX_FEED_SNAPSHOTS, hasShared, tempFile } from '../helpers/source-files.js';
import { webhookReceiver, type Received } from '../helpers/webhook-receiver.js';
import { POSTGRES, postgresAvailable, sideOf } from '../helpers/stores.js';
import { prepareWebhooks } from '../../src/start-up.js';
import { webhookTransport } from '../../src/compose/side.js';
import { createDispatcher } from '../../src/modules/webhooks/dispatcher.js';
import { createWebhooksRepo } from '../../src/modules/webhooks/webhooks.repo.js';
import { testConfig } from '../helpers/config.js';
import { servedDocument } from '../helpers/openapi.js';

// Webhooks over real refreshes of TX snapshots written from the TREC layout, to a receiver on
// loopback that checks every signature with the Standard Webhooks library.
const { first: snapshot1, second: snapshot2 } = TX_FEED_SNAPSHOTS;

// Retries 50 ms apart, twice: a delivery fails after three attempts.
const FAST: Partial<Config> = { WEBHOOK_ALLOW_PRIVATE_URLS: true, WEBHOOK_RETRY_SCHEDULE: [50, 50], WEBHOOK_TIMEOUT_MS: 500, WEBHOOK_CONNECT_TIMEOUT_MS: 500 };
const waitFor = <T>(fn: () => T | Promise<T>) => vi.waitFor(fn, { timeout: 15_000, interval: 20 });

// What depends on the graph engine (the events a refresh publishes, and who gets them) runs on both
// engines; retries, signing, endpoints and the side store do not, and run on LadybugDB alone.
const onNeo4j = TEST_ENGINE === 'neo4j';

/**
 * Why a value is not a `ChangeEvent` of the served OpenAPI document, a field it does not declare
 * included (undefined when it is one).
 */
function notAChangeEvent(value: unknown): string | undefined {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema(servedDocument().doc, 'openapi.json');
  const validate = ajv.compile({ $ref: 'openapi.json#/components/schemas/ChangeEvent', unevaluatedProperties: false });
  return validate(value) ? undefined : ajv.errorsText(validate.errors);
}

/** Every request checked against the endpoint's secret(s); returns the payloads. */
function verified(requests: Received[], ...secrets: string[]) {
  return requests.map((r) => {
    for (const secret of secrets) new Webhook(secret).verify(r.body, r.headers);
    const parsed = WebhookPayload.parse(JSON.parse(r.body));
    return { id: r.headers['webhook-id'], ...parsed };
  });
}

describe('webhooks', () => {
  let graph: GraphAdapters;
  let side: Awaited<ReturnType<typeof testStore>>;
  let app: App;
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
  const rejectsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-webhooks-'));
  const ingest = (text: string, snapshot: string) => {
    const file = tempFile('tx.csv', `${text}\n`);
    return refresh(refreshOf(graph, files, side.clock, side.changes.log), { files: [file], format: resolveFormat(file), snapshot, rejectsDir });
  };
  let n = 0;
  const account = async (plan: 'free' | 'enterprise' = 'enterprise') => {
    const { key } = await side.accounts.createAccount({ email: `hooks${++n}@example.com`, plan });
    return { Authorization: `Bearer ${key.key}` };
  };
  const endpoint = async (auth: Record<string, string>, url: string, extra: object = {}) =>
    body(await request(app).post('/api/v1/webhooks').set(auth).send({ url, ...extra }), EndpointWithSecret);
  const deliveries = async (auth: Record<string, string>, id: string, query = '') => body(await request(app).get(`/api/v1/webhooks/${id}/deliveries${query}`).set(auth), DeliveryPage);

  beforeAll(async () => {
    ({ graph } = await testGraph());
    side = await testStore(FAST);
    app = testApp(graph, side) as unknown as App;
    receiver = await webhookReceiver();
    side.dispatcher.start();
  });
  afterAll(async () => {
    await side?.dispatcher.stop();
    await receiver?.close();
    await graph?.close();
    await side?.store.close();
  });

  it('when two snapshots are refreshed then a state follower and a licence watcher get exactly their events, signed, each once, and a disabled endpoint gets nothing', async () => {
    const follower = await account();
    body(await request(app).put('/api/v1/watchlist/states/tx').set(follower), Followed);
    const all = await endpoint(follower, receiver.url('/follower'), { description: 'everything in TX' });
    const off = await endpoint(follower, receiver.url('/disabled'));
    expect(body(await request(app).patch(`/api/v1/webhooks/${off.id}`).set(follower).send({ status: 'disabled' }), Endpoint)).toMatchObject({ status: 'disabled', disabled_reason: 'disabled by the account' });

    const watcher = await account();
    // 4-SA is not on file yet: its license_added event comes when it appears.
    body(await request(app).post('/api/v1/watchlist').set(watcher).send({ items: ['1-SA', '100-B', '4-SA'].map((license_number) => ({ state: 'TX', license_number })) }), WatchResult);
    const some = await endpoint(watcher, receiver.url('/watcher'), { event_types: ['status_changed', 'supervision_started', 'supervision_ended', 'license_added'] });
    // A watcher of the broker an agent leaves hears of the transfer, though the event is on the agent's licence and names the new broker.
    const oldBroker = await account();
    body(await request(app).post('/api/v1/watchlist').set(oldBroker).send({ items: [{ state: 'TX', license_number: '100-B' }] }), WatchResult);
    const moves = await endpoint(oldBroker, receiver.url('/moves'), { event_types: ['supervision_transferred', 'roster_moved'] });

    await ingest(snapshot1, '2026-09-01');
    await ingest(snapshot2, '2026-10-01');
    const feedRes = await request(app).get('/api/v1/licensees/changes?limit=1000').set(follower);
    const feed = body(feedRes, ChangeFeed).data;
    expect(feed).toHaveLength(9);

    await waitFor(() => expect(receiver.at('/follower')).toHaveLength(9));
    const got = verified(receiver.at('/follower'), all.secret);
    expect(got.map((g) => g.data).sort((a, b) => a.id.localeCompare(b.id))).toEqual(feed);
    expect(got.every((g) => g.type === g.data.type && g.timestamp === g.data.detected_at)).toBe(true);
    expect(new Set(got.map((g) => g.id)).size).toBe(9);
    await waitFor(() => expect(receiver.at('/moves')).toHaveLength(1));
    const [transfer] = verified(receiver.at('/moves'), moves.secret);
    expect(transfer.data).toEqual(feed.find((e) => e.type === 'supervision_transferred'));
    expect([transfer.data.license_number, transfer.data.transfer!.from.supervisor_license_number, transfer.data.transfer!.to.supervisor_license_number]).toEqual(['1-SA', '100-B', '200-B']);

    await waitFor(() => expect(receiver.at('/watcher')).toHaveLength(5));
    const watched = verified(receiver.at('/watcher'), some.secret).map((g) => [g.type, g.data.license_number, g.data.relationship?.supervisor_license_number ?? null]);
    expect(watched.sort()).toEqual(
      [
        ['license_added', '4-SA', null],
        ['status_changed', '100-B', null],
        ['supervision_ended', '1-SA', '100-B'],
        // 2-SA is not watched, but its supervisor 100-B is.
        ['supervision_ended', '2-SA', '100-B'],
        ['supervision_started', '1-SA', '200-B'],
      ].sort(),
    );
    // A signature by another secret does not verify.
    expect(() => new Webhook(all.secret).verify(receiver.at('/watcher')[0].body, receiver.at('/watcher')[0].headers)).toThrow();

    const log = await deliveries(follower, all.id);
    expect(log.meta.total).toBe(9);
    expect(log.data.every((d) => d.status === 'succeeded' && d.attempts === 1 && d.last_status_code === 200 && d.next_attempt_at === null)).toBe(true);
    expect(log.data[0].last_response_excerpt).toHaveLength(1024);
    expect(new Set(log.data.map((d) => d.event_id))).toEqual(new Set(feed.map((e) => e.id)));
    expect(receiver.at('/disabled')).toHaveLength(0);
    expect((await deliveries(follower, off.id)).meta.total).toBe(0);
  });

  it.skipIf(onNeo4j)('when a receiver answers 500 then 200 then the event comes on a retry with the same webhook-id; one that never answers 2xx is failed after the schedule, and redelivered on demand', async () => {
    const auth = await account();
    body(await request(app).put('/api/v1/watchlist/states/TX').set(auth), Followed);
    receiver.answer('/flaky', (k) => (k === 1 ? 500 : 200));
    receiver.answer('/down', (k) => (k <= 3 ? 503 : 200));
    const flaky = await endpoint(auth, receiver.url('/flaky'), { event_types: ['name_changed'] });
    const down = await endpoint(auth, receiver.url('/down'), { event_types: ['name_changed'] });
    await ingest(snapshot2.replace('FRESH AGENT', 'RENAMED AGENT'), '2026-10-08');

    await waitFor(() => expect(receiver.at('/flaky')).toHaveLength(2));
    const [first, second] = receiver.at('/flaky');
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(verified([first, second], flaky.secret).map((g) => g.data.license_number)).toEqual(['4-SA', '4-SA']);
    await waitFor(async () => expect((await deliveries(auth, flaky.id)).data[0]).toMatchObject({ status: 'succeeded', attempts: 2, last_status_code: 200 }));

    await waitFor(async () => expect((await deliveries(auth, down.id, '?status=failed')).data).toHaveLength(1));
    const failed = (await deliveries(auth, down.id)).data[0];
    expect(failed).toMatchObject({ status: 'failed', attempts: 3, last_status_code: 503, next_attempt_at: null });
    expect(failed.last_response_excerpt).toMatch(/^answer 503 to request 3/);
    expect(receiver.at('/down')).toHaveLength(3);

    const again = body(await request(app).post(`/api/v1/webhooks/${down.id}/deliveries/${failed.id}/redeliver`).set(auth), Delivery);
    expect(again).toMatchObject({ id: failed.id, status: 'pending' });
    await waitFor(async () => expect((await deliveries(auth, down.id)).data[0]).toMatchObject({ status: 'succeeded', attempts: 4, last_status_code: 200 }));
    expect(receiver.at('/down').map((r) => r.headers['webhook-id'])).toEqual(Array(4).fill(failed.id));
  });

  it.skipIf(onNeo4j)('when a receiver times out or answers 410 then the attempt records why, and 410 disables the endpoint', async () => {
    const auth = await account();
    body(await request(app).put('/api/v1/watchlist/states/TX').set(auth), Followed);
    receiver.answer('/slow', () => 'hang');
    receiver.answer('/gone', () => 410);
    const slow = await endpoint(auth, receiver.url('/slow'), { event_types: ['name_changed'] });
    const gone = await endpoint(auth, receiver.url('/gone'), { event_types: ['name_changed'] });
    await ingest(snapshot2.replace('FRESH AGENT', 'RENAMED AGAIN'), '2026-10-09');

    await waitFor(async () => expect((await deliveries(auth, slow.id)).data[0]?.attempts).toBeGreaterThanOrEqual(1));
    expect((await deliveries(auth, slow.id)).data[0]).toMatchObject({ last_status_code: null, last_error: expect.stringMatching(/timeout/i) });
    await waitFor(async () => expect(body(await request(app).get(`/api/v1/webhooks/${gone.id}`).set(auth), Endpoint)).toMatchObject({ status: 'disabled', disabled_reason: 'the receiver answered 410 Gone' }));
    expect((await deliveries(auth, gone.id)).data[0]).toMatchObject({ status: 'failed', attempts: 1, last_status_code: 410 });
    body(await request(app).patch(`/api/v1/webhooks/${slow.id}`).set(auth).send({ status: 'disabled' }), Endpoint);
  });

  it.skipIf(onNeo4j)('when the secret is rotated then deliveries verify with the new secret and, for a day, with the old one', async () => {
    const auth = await account();
    body(await request(app).post('/api/v1/watchlist').set(auth).send({ items: [{ state: 'TX', license_number: '4-SA' }] }), WatchResult);
    const made = await endpoint(auth, receiver.url('/rotated'));
    const rotated = body(await request(app).post(`/api/v1/webhooks/${made.id}/rotate-secret`).set(auth), EndpointWithSecret);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(made.secret);
    expect(Date.parse(rotated.previous_secret_expires_at!) - Date.now()).toBeGreaterThan(23 * 3600_000);
    await ingest(snapshot2.replace('FRESH AGENT', 'RENAMED THRICE'), '2026-10-10');
    await waitFor(() => expect(receiver.at('/rotated')).toHaveLength(1));
    expect(receiver.at('/rotated')[0].headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verified(receiver.at('/rotated'), rotated.secret, made.secret)[0].data).toMatchObject({ type: 'name_changed', license_number: '4-SA', new: { full_name: 'RENAMED THRICE' } });
  });

  it.skipIf(onNeo4j)("when an event is delivered then its data is the feed's event exactly, a ChangeEvent of the OpenAPI document with no other field", async () => {
    const auth = await account();
    body(await request(app).put('/api/v1/watchlist/states/TX').set(auth), Followed);
    const made = await endpoint(auth, receiver.url('/exact'), { event_types: ['name_changed'] });
    await ingest(snapshot2.replace('FRESH AGENT', 'RENAMED EXACTLY'), '2026-10-11');
    await waitFor(() => expect(receiver.at('/exact')).toHaveLength(1));
    const [delivered] = receiver.at('/exact');
    new Webhook(made.secret).verify(delivered.body, delivered.headers);
    // As sent and as served, not through a zod schema (which drops the fields it does not know).
    const { data } = JSON.parse(delivered.body);
    const feedRes = await request(app).get('/api/v1/licensees/changes?limit=1000&types=name_changed').set(auth);
    body(feedRes, ChangeFeed);
    const fromFeed = (feedRes.body.data as { id: string }[]).find((e) => e.id === data.id);
    expect(fromFeed).toBeDefined();
    expect(data).toEqual(fromFeed);
    expect(notAChangeEvent(data)).toBeUndefined();
    expect(notAChangeEvent({ ...data, seq: 1 })).toMatch(/unevaluated/);
  });

  it.skipIf(onNeo4j)('when an endpoint names licence_added, the old name of license_added, then it is answered license_added until 2027-06-30, and is unknown after', async () => {
    let at = new Date('2027-06-30T23:59:00Z');
    const pinned = await testStore(FAST, undefined, clockOf(() => at));
    try {
      const pinnedApp = testApp(graph, pinned) as unknown as App;
      const { key } = await pinned.accounts.createAccount({ email: 'old-names@example.com', plan: 'enterprise' });
      const auth = { Authorization: `Bearer ${key.key}` };
      const made = body(await request(pinnedApp).post('/api/v1/webhooks').set(auth).send({ url: receiver.url('/old-name'), event_types: ['licence_added'] }), EndpointWithSecret);
      expect(made.event_types).toEqual(['license_added']);
      expect(body(await request(pinnedApp).get(`/api/v1/webhooks/${made.id}`).set(auth), Endpoint).event_types).toEqual(['license_added']);
      const patched = body(await request(pinnedApp).patch(`/api/v1/webhooks/${made.id}`).set(auth).send({ event_types: ['status_changed', 'licence_added'] }), Endpoint);
      expect(patched.event_types).toEqual(['status_changed', 'license_added']);

      at = new Date('2027-07-01T00:00:00Z');
      const [refused] = validationErrors(await request(pinnedApp).post('/api/v1/webhooks').set(auth).send({ url: receiver.url('/old-name'), event_types: ['licence_added'] }));
      expect(refused).toMatchObject({ loc: ['body', 'event_types', 0], input: 'licence_added', msg: expect.stringContaining('license_added, status_changed') });
      expect(refused.msg).not.toMatch(/licence_added.*licence_added/);
      expect(validationErrors(await request(pinnedApp).patch(`/api/v1/webhooks/${made.id}`).set(auth).send({ event_types: ['status_changed', 'licence_added'] }))[0].loc).toEqual(['body', 'event_types', 1]);
      expect(body(await request(pinnedApp).post('/api/v1/webhooks').set(auth).send({ url: receiver.url('/new-name'), event_types: ['license_added'] }), EndpointWithSecret).event_types).toEqual(['license_added']);
    } finally {
      await pinned.store.close();
    }
  });

  it.skipIf(onNeo4j)('when endpoints are managed then the secret is shown only at creation, another account cannot see them, and bad input is a 4xx naming the problem', async () => {
    const auth = await account();
    const made = await endpoint(auth, receiver.url('/managed'), { event_types: ['status_changed'] });
    const listed = body(await request(app).get('/api/v1/webhooks').set(auth), EndpointList);
    expect(listed.data).toEqual([Endpoint.parse({ ...made, secret: undefined })]);
    expect(JSON.stringify(listed)).not.toContain(made.secret);
    expect(body(await request(app).patch(`/api/v1/webhooks/${made.id}`).set(auth).send({ event_types: null, description: 'all types' }), Endpoint)).toMatchObject({ event_types: null, description: 'all types', status: 'enabled' });

    const other = await account();
    expect(errorDetail(await request(app).get(`/api/v1/webhooks/${made.id}`).set(other), 404)).toContain(made.id);
    expect(errorDetail(await request(app).delete(`/api/v1/webhooks/${made.id}`).set(other), 404)).toContain(made.id);
    expect(validationErrors(await request(app).get('/api/v1/webhooks/nope').set(auth))[0]).toMatchObject({ loc: ['path', 'id'] });
    expect(validationErrors(await request(app).post('/api/v1/webhooks').set(auth).send({ url: receiver.url('/x'), event_types: ['licence_exploded'] }))[0].loc).toEqual(['body', 'event_types', 0]);
    expect(validationErrors(await request(app).patch(`/api/v1/webhooks/${made.id}`).set(auth).send({}))[0].msg).toContain('at least one');
    expect(validationErrors(await request(app).post('/api/v1/webhooks').set(auth).send({ url: 'ftp://example.com/hook' }))[0]).toMatchObject({ loc: ['body', 'url'], msg: expect.stringContaining('http') });

    for (let i = 1; i < 10; i++) await endpoint(auth, receiver.url(`/many-${i}`));
    expect(errorDetail(await request(app).post('/api/v1/webhooks').set(auth).send({ url: receiver.url('/eleventh') }), 409)).toContain('at most 10');
    expect(body(await request(app).delete(`/api/v1/webhooks/${made.id}`).set(auth), Deleted)).toEqual({ id: made.id, deleted: true });
    expect(body(await request(app).get('/api/v1/webhooks').set(auth), EndpointList).data).toHaveLength(9);
    // Managing webhooks is not metered: a free account's 25 lookups are untouched.
    const free = await account('free');
    for (let i = 0; i < 30; i++) expect((await request(app).get('/api/v1/webhooks').set(free)).status).toBe(200);
  });

  it.skipIf(onNeo4j)('when states are followed then the plan limits them, a repeat is idempotent, and unfollowing an unfollowed state is 404', async () => {
    const free = await account('free');
    expect(body(await request(app).put('/api/v1/watchlist/states/fl').set(free), Followed)).toEqual({ state: 'FL', following: true, states: 1, limit: 1 });
    expect(body(await request(app).put('/api/v1/watchlist/states/FL').set(free), Followed)).toMatchObject({ states: 1 });
    expect(errorDetail(await request(app).put('/api/v1/watchlist/states/TX').set(free), 402)).toContain('at most 1 whole states');
    expect(body(await request(app).get('/api/v1/watchlist/states').set(free), FollowedList).data.map((s) => s.state)).toEqual(['FL']);
    expect(body(await request(app).delete('/api/v1/watchlist/states/FL').set(free), Unfollowed)).toEqual({ state: 'FL', following: false });
    expect(errorDetail(await request(app).delete('/api/v1/watchlist/states/FL').set(free), 404)).toContain('FL');
    expect(validationErrors(await request(app).put('/api/v1/watchlist/states/T1').set(free))[0].loc).toEqual(['path', 'state']);
  });

  it.skipIf(onNeo4j)('when the webhook URL points at a private, loopback, link-local or metadata address then it is refused at creation', async () => {
    const strict = await testStore();
    try {
      const strictApp = testApp(graph, strict) as unknown as App;
      const { key } = await strict.accounts.createAccount({ email: 'strict@example.com', plan: 'enterprise' });
      const auth = { Authorization: `Bearer ${key.key}` };
      const refused = async (url: string) => validationErrors(await request(strictApp).post('/api/v1/webhooks').set(auth).send({ url }))[0];
      expect(await refused('http://hooks.example.com/x')).toMatchObject({ loc: ['body', 'url'], msg: 'the URL must be an https:// URL' });
      for (const url of ['https://127.0.0.1/x', 'https://10.1.2.3/x', 'https://192.168.0.10/x', 'https://169.254.169.254/latest/meta-data', 'https://[::1]/x', 'https://[fd00:ec2::254]/x', 'https://[::ffff:10.0.0.1]/x', 'https://100.100.100.200/x']) {
        expect((await refused(url)).msg, url).toMatch(/^the URL points at \S+, which is not a public address$/);
      }
      expect((await refused('https://localhost/x')).msg).toMatch(/^the URL's host localhost resolves to (127\.0\.0\.1|::1), which is not a public address$/);
      expect((await refused('https://user:secret@hooks.example.com/x')).msg).toContain('credentials');
      // .invalid never resolves (RFC 2606).
      expect((await refused('https://hooks.example.invalid/x')).msg).toBe("the URL's host hooks.example.invalid does not resolve");
      expect(body(await request(strictApp).get('/api/v1/webhooks').set(auth), EndpointList).data).toEqual([]);
    } finally {
      await strict.store.close();
    }
  });
});

describe.skipIf(onNeo4j)('webhook deliveries across a restart', () => {
  it('when the process stops between attempts then the next one delivers the stored event, with the same webhook-id', async () => {
    const folder = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-restart-')), 'accounts.pglite');
    const receiver = await webhookReceiver();
    const { graph } = await testGraph();
    // Long waits between retries: the first process stops before its retry is due.
    const slow: Partial<Config> = { WEBHOOK_ALLOW_PRIVATE_URLS: true, WEBHOOK_RETRY_SCHEDULE: [60_000] };
    let side = await testStore(slow, folder);
    try {
      const { key } = await side.accounts.createAccount({ email: 'restart@example.com', plan: 'enterprise' });
      const auth = { Authorization: `Bearer ${key.key}` };
      let app = testApp(graph, side) as unknown as App;
      body(await request(app).put('/api/v1/watchlist/states/TX').set(auth), Followed);
      const made = body(await request(app).post('/api/v1/webhooks').set(auth).send({ url: receiver.url('/restart') }), EndpointWithSecret);
      receiver.answer('/restart', (k) => (k === 1 ? 500 : 200));
      side.dispatcher.start();
      const file = tempFile('tx.csv', `${snapshot1}\n`);
      await refresh(refreshOf(graph, files, side.clock, side.changes.log), { files: [file], format: resolveFormat(file), snapshot: '2026-09-01', rejectsDir: path.dirname(folder) });
      await waitFor(() => expect(receiver.at('/restart')).toHaveLength(1));
      await side.dispatcher.stop();
      await side.store.close();

      // The next process, on the same store on disk, a minute later: the retry is due.
      side = await testStore(slow, folder, clockOf(() => new Date(Date.now() + 61_000)));
      app = testApp(graph, side) as unknown as App;
      const pending = body(await request(app).get(`/api/v1/webhooks/${made.id}/deliveries`).set(auth), DeliveryPage).data;
      expect(pending).toMatchObject([{ status: 'pending', attempts: 1, last_status_code: 500 }]);
      expect(receiver.at('/restart')).toHaveLength(1);
      side.dispatcher.start();
      await waitFor(() => expect(receiver.at('/restart')).toHaveLength(2));
      const [first, second] = receiver.at('/restart');
      expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
      expect(verified([second], made.secret)[0]).toMatchObject({ type: 'state_loaded', data: { state: 'TX' } });
      await waitFor(async () => expect(body(await request(app).get(`/api/v1/webhooks/${made.id}/deliveries`).set(auth), DeliveryPage).data[0]).toMatchObject({ status: 'succeeded', attempts: 2 }));
    } finally {
      await side.dispatcher.stop();
      await side.store.close();
      await graph.close();
      await receiver.close();
    }
  });
});

describe.skipIf(onNeo4j)('an endpoint made under WEBHOOK_ALLOW_PRIVATE_URLS=true, after a restart without it', () => {
  it('when the dispatcher meets its http URL then the delivery fails at once; the next start disables the endpoint saying why, and fails what it had pending', async () => {
    const folder = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-refused-')), 'accounts.pglite');
    const receiver = await webhookReceiver();
    const { graph } = await testGraph();
    // Retries a minute apart: a delivery failed within the test was failed at once, not retried.
    const strict: Partial<Config> = { WEBHOOK_RETRY_SCHEDULE: [60_000] };
    let side = await testStore({ WEBHOOK_ALLOW_PRIVATE_URLS: true, WEBHOOK_RETRY_SCHEDULE: [60_000] }, folder);
    const ingest = (text: string, snapshot: string) => {
      const file = tempFile('tx.csv', `${text}\n`);
      return refresh(refreshOf(graph, files, side.clock, side.changes.log), { files: [file], format: resolveFormat(file), snapshot, rejectsDir: path.dirname(folder) });
    };
    try {
      const { key } = await side.accounts.createAccount({ email: 'private@example.com', plan: 'enterprise' });
      const auth = { Authorization: `Bearer ${key.key}` };
      let app = testApp(graph, side) as unknown as App;
      body(await request(app).put('/api/v1/watchlist/states/TX').set(auth), Followed);
      const made = body(await request(app).post('/api/v1/webhooks').set(auth).send({ url: receiver.url('/private') }), EndpointWithSecret);
      // One delivery stored, not sent: this process never starts its dispatcher.
      await ingest(snapshot1, '2026-09-01');
      await side.store.close();

      side = await testStore(strict, folder);
      app = testApp(graph, side) as unknown as App;
      const log = async (query = '') => body(await request(app).get(`/api/v1/webhooks/${made.id}/deliveries${query}`).set(auth), DeliveryPage);
      side.dispatcher.start();
      await waitFor(async () => expect((await log()).data[0]).toMatchObject({ status: 'failed', attempts: 1, last_status_code: null, last_error: 'the URL must be an https:// URL', next_attempt_at: null }));
      await side.dispatcher.stop();
      // Still enabled: events published now are stored for it, until the next start.
      await ingest(snapshot2, '2026-10-01');
      expect((await log('?status=pending')).meta.total).toBe(8);
      await side.store.close();

      side = await testStore(strict, folder);
      app = testApp(graph, side) as unknown as App;
      // What a start logs, each warning's arguments as one line.
      const warned = (into: string[]) => ({ warn: (...args: unknown[]) => into.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')) }) as never;
      const warnings: string[] = [];
      await prepareWebhooks(side.webhooks, false, warned(warnings));
      const reason = 'the URL must be an https:// URL';
      expect(body(await request(app).get(`/api/v1/webhooks/${made.id}`).set(auth), Endpoint)).toMatchObject({ status: 'disabled', disabled_reason: reason });
      expect((await log('?status=pending')).meta.total).toBe(0);
      const failed = (await log('?status=failed&per_page=100')).data;
      expect(failed).toHaveLength(9);
      const neverSent = failed.filter((d) => d.attempts === 0);
      expect(neverSent).toHaveLength(8);
      expect(neverSent.every((d) => d.last_error === `the endpoint was disabled: ${reason}` && d.next_attempt_at === null)).toBe(true);
      expect(warnings).toEqual([expect.stringContaining(made.id)]);
      expect(warnings[0]).toContain(reason);
      expect(receiver.received).toHaveLength(0);
      // It stays off until its URL changes.
      const enable = validationErrors(await request(app).patch(`/api/v1/webhooks/${made.id}`).set(auth).send({ status: 'enabled' }));
      expect(enable).toEqual([expect.objectContaining({ loc: ['body', 'status'], msg: `cannot enable: ${reason}; send a new url` })]);
      expect(body(await request(app).get(`/api/v1/webhooks/${made.id}`).set(auth), Endpoint).status).toBe('disabled');

      // With the setting on, a start says so, and disables nothing.
      const allowed: string[] = [];
      await prepareWebhooks(side.webhooks, true, warned(allowed));
      expect(allowed).toEqual([expect.stringContaining('WEBHOOK_ALLOW_PRIVATE_URLS=true')]);
    } finally {
      await side.dispatcher.stop();
      await side.store.close();
      await graph.close();
      await receiver.close();
    }
  });
});

// On LadybugDB: on Neo4j, changes.both derives each of these event types and sources.both ingests this file.
describe.skipIf(!hasShared || onNeo4j)('webhooks over the real TREC inspector export (../shared; skipped in a clone without it)', () => {
  it('when the real file is refreshed with statuses, an expiration, a departure and two supervisors changed then the feed and a verifying receiver get exactly those events', async () => {
    const receiver = await webhookReceiver();
    const { graph } = await testGraph();
    const side = await testStore(FAST);
    const rejectsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-real-tx-'));
    try {
      const app = testApp(graph, side) as unknown as App;
      const { key } = await side.accounts.createAccount({ email: 'real-tx@example.com', plan: 'enterprise' });
      const auth = { Authorization: `Bearer ${key.key}` };
      body(await request(app).put('/api/v1/watchlist/states/TX').set(auth), Followed);
      const made = body(await request(app).post('/api/v1/webhooks').set(auth).send({ url: receiver.url('/real') }), EndpointWithSecret);
      side.dispatcher.start();
      const ingest = (file: string, snapshot: string) => refresh(refreshOf(graph, files, side.clock, side.changes.log), { files: [file], format: resolveFormat(file), snapshot, rejectsDir });

      const real = path.join(SHARED_SOURCES, 'TX/trec-license-holders-inspectors.csv');
      await ingest(real, '2026-11-01');
      // The next snapshot, edited from the real rows: only licences nobody else names are touched.
      const [header, ...rows] = parse(fs.readFileSync(real), { relax_column_count: true }) as string[][];
      const col = (name: string) => header.indexOf(name);
      const [NUMBER, STATUS, EXPIRES, RELATED, RELATED_NAME, RELATED_START] = ['License Number', 'Status', 'License Expiration Date', 'Related License Number', 'Related License Full Name', 'Related License Start Date'].map(col);
      const named = new Set(rows.map((r) => r[RELATED]).filter(Boolean));
      const plain = rows.filter((r) => r[STATUS] === 'Active' && !r[RELATED] && !named.has(r[NUMBER]));
      const [s1, s2, s3, renewed, gone] = plain;
      const supervised = rows.filter((r) => r[RELATED] && r[STATUS] === 'Active');
      const [m1, m2] = supervised;
      const other = supervised.find((r) => r[RELATED] !== m1[RELATED] && r[RELATED] !== m2[RELATED])!;
      const before = new Map([m1, m2].map((r) => [r[NUMBER], r[RELATED]]));
      for (const r of [s1, s2, s3]) r[STATUS] = 'Inactive';
      renewed[EXPIRES] = '12/31/2030';
      for (const r of [m1, m2]) {
        r[RELATED] = other[RELATED];
        r[RELATED_NAME] = other[RELATED_NAME];
        r[RELATED_START] = '11/05/2026 12:00:00 AM';
      }
      const next = tempFile('trec-next.csv', stringify([header, ...rows.filter((r) => r !== gone)]));
      await ingest(next, '2026-11-08');

      const feed = body(await request(app).get('/api/v1/licensees/changes?limit=1000').set(auth), ChangeFeed).data;
      const got = feed.slice(1).map((e) => [e.type, e.license_number, e.relationship?.supervisor_license_number ?? null]);
      expect(got.sort()).toEqual(
        [
          ...[s1, s2, s3].map((r) => ['status_changed', r[NUMBER], null]),
          ['expiration_changed', renewed[NUMBER], null],
          ['left_source', gone[NUMBER], null],
          ...[m1, m2].flatMap((r) => [
            ['supervision_ended', r[NUMBER], before.get(r[NUMBER])],
            ['supervision_started', r[NUMBER], other[RELATED]],
            ['supervision_transferred', r[NUMBER], other[RELATED]],
          ]),
        ].sort(),
      );
      for (const r of [m1, m2]) {
        const moved = feed.find((e) => e.type === 'supervision_transferred' && e.license_number === r[NUMBER])!;
        expect([moved.transfer!.from.supervisor_license_number, moved.transfer!.to.effective_from, moved.transfer!.gap_days]).toEqual([before.get(r[NUMBER]), '2026-11-05', 0]);
      }
      expect(feed[0]).toMatchObject({ type: 'state_loaded', state: 'TX', license_number: null });
      await waitFor(() => expect(receiver.at('/real')).toHaveLength(feed.length));
      expect(verified(receiver.at('/real'), made.secret).map((g) => g.data).sort((a, b) => a.id.localeCompare(b.id))).toEqual(feed);
    } finally {
      await side.dispatcher.stop();
      await side.store.close();
      await graph.close();
      await receiver.close();
    }
  });
});

describe.skipIf(onNeo4j || !(await postgresAvailable()))('webhooks on PostgreSQL', () => {
  it('when the side store is PostgreSQL then endpoints are managed, and a published event is delivered after a failed attempt', async () => {
    const { store, drop } = await POSTGRES.open();
    const receiver = await webhookReceiver();
    const { graph } = await testGraph();
    const side = await sideOf(store, FAST);
    try {
      const app = testApp(graph, side) as unknown as App;
      const { key } = await side.accounts.createAccount({ email: 'pg-hooks@example.com', plan: 'enterprise' });
      const auth = { Authorization: `Bearer ${key.key}` };
      body(await request(app).put('/api/v1/watchlist/states/TX').set(auth), Followed);
      const made = body(await request(app).post('/api/v1/webhooks').set(auth).send({ url: receiver.url('/pg'), description: 'pg' }), EndpointWithSecret);
      expect(body(await request(app).patch(`/api/v1/webhooks/${made.id}`).set(auth).send({ event_types: ['state_loaded'], description: null }), Endpoint)).toMatchObject({ event_types: ['state_loaded'], description: null, status: 'enabled' });
      body(await request(app).post(`/api/v1/webhooks/${made.id}/rotate-secret`).set(auth), EndpointWithSecret);
      receiver.answer('/pg', (k) => (k === 1 ? 502 : 204));
      side.dispatcher.start();
      const file = tempFile('tx.csv', `${snapshot1}\n`);
      await refresh(refreshOf(graph, files, side.clock, side.changes.log), { files: [file], format: resolveFormat(file), snapshot: '2026-09-01', rejectsDir: fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-pg-hooks-')) });
      await waitFor(async () => expect(body(await request(app).get(`/api/v1/webhooks/${made.id}/deliveries`).set(auth), DeliveryPage).data[0]).toMatchObject({ status: 'succeeded', attempts: 2, last_status_code: 204 }));
      expect(receiver.at('/pg').map((r) => JSON.parse(r.body).type)).toEqual(['state_loaded', 'state_loaded']);
      expect(body(await request(app).delete(`/api/v1/webhooks/${made.id}`).set(auth), Deleted)).toEqual({ id: made.id, deleted: true });
    } finally {
      await side.dispatcher.stop();
      await receiver.close();
      await graph.close();
      await drop();
    }
  });
});

describe.skipIf(onNeo4j)('one slow endpoint', () => {
  it('when one endpoint hangs then another endpoint of the same events gets all of them meanwhile', async () => {
    const receiver = await webhookReceiver();
    const { graph } = await testGraph();
    // Receivers get a minute: a hanging one holds its lanes for the whole test.
    const side = await testStore({ WEBHOOK_ALLOW_PRIVATE_URLS: true, WEBHOOK_RETRY_SCHEDULE: [60_000], WEBHOOK_TIMEOUT_MS: 60_000 });
    try {
      const app = testApp(graph, side) as unknown as App;
      const { key } = await side.accounts.createAccount({ email: 'isolation@example.com', plan: 'enterprise' });
      const auth = { Authorization: `Bearer ${key.key}` };
      body(await request(app).put('/api/v1/watchlist/states/TX').set(auth), Followed);
      receiver.answer('/hang', () => 'hang');
      body(await request(app).post('/api/v1/webhooks').set(auth).send({ url: receiver.url('/hang') }), EndpointWithSecret);
      const fine = body(await request(app).post('/api/v1/webhooks').set(auth).send({ url: receiver.url('/fine') }), EndpointWithSecret);
      side.dispatcher.start();
      const rejectsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-isolation-'));
      const ingest = (text: string, snapshot: string) => {
        const file = tempFile('tx.csv', `${text}\n`);
        return refresh(refreshOf(graph, files, side.clock, side.changes.log), { files: [file], format: resolveFormat(file), snapshot, rejectsDir });
      };
      await ingest(snapshot1, '2026-09-01');
      await ingest(snapshot2, '2026-10-01');
      // 9 events: the hanging endpoint holds 8 requests open, the other gets every event.
      await waitFor(() => expect(receiver.at('/fine')).toHaveLength(9));
      expect(verified(receiver.at('/fine'), fine.secret)).toHaveLength(9);
      expect(receiver.at('/hang').length).toBeGreaterThan(0);
      expect(receiver.at('/hang').length).toBeLessThanOrEqual(8);
    } finally {
      // Closing the receiver ends the hanging requests, so the dispatcher stops at once.
      await receiver.close();
      await side.dispatcher.stop();
      await side.store.close();
      await graph.close();
    }
  });
});

describe.skipIf(onNeo4j)('webhook attempts paced', () => {
  it('when a refresh runs then attempts start at the refresh rate, and at the usual rate once it ends', async () => {
    const receiver = await webhookReceiver();
    const side = await testStore({ WEBHOOK_ALLOW_PRIVATE_URLS: true });
    // One pinned time for the clock and the pacing, moved by the waits alone (one lane, so in turn): no wall-clock time is asserted.
    let t = Date.parse('2026-10-01T00:00:00.000Z');
    const timer = { now: () => t, wait: async (ms: number) => void (t = Math.max(t, timer.now() + ms)) };
    const said: string[] = [];
    const repo = createWebhooksRepo(side.store);
    const dispatcher = createDispatcher(
      {
        repo,
        events: async () => [],
        transport: webhookTransport(testConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: true })),
        now: () => new Date(t),
        log: { info: (_: unknown, msg: string) => void said.push(msg), warn: () => undefined, error: () => undefined },
        refreshing: async () => (await side.refreshLeases.running()).length > 0,
        timer,
      },
      { retrySchedule: [100], endpoints: 1, perEndpoint: 1, leaseMs: 60_000, rate: 1000, refreshRate: 2 },
    );
    const stamps = (from: number) => receiver.at('/paced').slice(from).map((r) => Number(r.headers['webhook-timestamp']));
    const deliveries = (n: number) =>
      side.store.transaction(async (tx) => {
        for (let i = 0; i < n; i++) await repo.fanOutEvent(tx, account.id, 'license_expiring', { n: i }, new Date(t));
      });
    const { account } = await side.accounts.createAccount({ email: 'paced@example.com', plan: 'enterprise' });
    await side.webhooks.create(account, { url: receiver.url('/paced') });
    try {
      await side.refreshLeases.acquire({ state: 'TX', source: 'tx-trec', run_id: 'run-paced', holder: 'a test' });
      await deliveries(9);
      dispatcher.start();
      await waitFor(() => expect(receiver.at('/paced')).toHaveLength(9));
      // Two a second: nine attempts span four seconds.
      const during = stamps(0);
      expect(Math.max(...during) - Math.min(...during)).toBeGreaterThanOrEqual(3);

      await side.refreshLeases.release('TX', 'run-paced');
      t += 10_000;
      // The rate is read once a (pinned) second by the dispatcher's poll: the next batch waits until it has been read.
      await waitFor(() => expect(said.at(-1)).toMatch(/usual pace/));
      await deliveries(9);
      await waitFor(() => expect(receiver.at('/paced')).toHaveLength(18));
      // A thousand a second: nine attempts within a second's boundary at most.
      const after = stamps(9);
      expect(Math.max(...after) - Math.min(...after)).toBeLessThanOrEqual(1);
    } finally {
      await dispatcher.stop();
      await receiver.close();
      await side.store.close();
    }
  });
});
