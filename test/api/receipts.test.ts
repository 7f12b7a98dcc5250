import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { JobReceiptResponse, JobResponse } from '../../src/modules/jobs/jobs.schemas.js';
import { createJobReceipts } from '../../src/modules/jobs/job-receipt.js';
import { z } from '../../src/http/zod.js';
import { Jwks } from '../../src/modules/receipts/receipts.routes.js';
import { VerificationPage, VerificationReceipt, VerificationRecord, VerificationReview } from '../../src/modules/verifications/verifications.schemas.js';
import pino from 'pino';
import { sideServices } from '../../src/compose/side.js';
import { systemClock } from '../../src/domain/clock.js';
import { testConfig } from '../helpers/config.js';
import { fixture, testGraph, testServices, testStore, useApp } from '../helpers/graph.js';
import { binary, pdfText } from '../helpers/pdf.js';
import { body, errorDetail, validationErrors } from '../helpers/http.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const ReceiptResponse = z.object({ data: VerificationReceipt });
const ReviewResponse = z.object({ data: VerificationReview });
const ReviewList = z.object({ data: z.array(VerificationReview) });
const RecordResponse = z.object({ data: VerificationRecord });

/**
 * What a third party does, in a process of its own with a JOSE library and nothing of the
 * service's: verifies `jws` against `jwks`; the payload and header, or the error's code.
 */
async function verifyElsewhere(jws: string, jwks: unknown): Promise<{ payload?: Record<string, any>; header?: Record<string, any>; error?: string }> {
  const script = `
    import { createLocalJWKSet, jwtVerify } from 'jose';
    const [jws, jwks] = JSON.parse(process.argv[1]);
    try {
      const { payload, protectedHeader } = await jwtVerify(jws, createLocalJWKSet(jwks), { algorithms: ['EdDSA'] });
      console.log(JSON.stringify({ payload, header: protectedHeader }));
    } catch (err) {
      console.log(JSON.stringify({ error: err.code ?? err.message }));
    }`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, JSON.stringify([jws, jwks])], { cwd: process.cwd() });
  return JSON.parse(stdout);
}

/** The same JWS with one byte of its payload changed (still valid base64url). */
function tamper(jws: string): string {
  const [header, payload, signature] = jws.split('.');
  const i = Math.floor(payload.length / 2);
  return [header, payload.slice(0, i) + (payload[i] === 'A' ? 'B' : 'A') + payload.slice(i + 1), signature].join('.');
}

describe('signed receipts', () => {
  const t = useApp(fixture('small'));
  const other = {} as { api: ReturnType<typeof request.agent>; accountId: string };
  let accountId: string;
  beforeAll(async () => {
    const made = await t.side.accounts.createAccount({ email: 'other@example.com', plan: 'growth' });
    other.api = request.agent(t.app).set('Authorization', `Bearer ${made.key.key}`);
    accountId = (await t.side.accounts.listAccounts()).find((a) => a.email === 'tests@example.com')!.id;
  });
  const jwks = async () => {
    const res = await request(t.app).get('/.well-known/jwks.json');
    return body(res, Jwks);
  };
  const receipt = async (id: string) => body(await t.api.get(`/api/v1/verifications/${id}/receipt`), ReceiptResponse).data;

  it('when a receipt is asked for then a process of its own verifies it with the JWKS and a JOSE library, and its claims are the answer', async () => {
    const res = await t.api.get('/api/v1/licensees/verify?state=TX&license_number=763827-sa&name=Jose%20Munoz');
    const id = res.headers['verification-id'];
    const r = await receipt(id);
    expect(r).toMatchObject({ verification_id: id, alg: 'EdDSA', typ: 'verification-receipt+jwt' });
    const keys = await jwks();
    expect(keys.keys.map((k) => k.kid)).toEqual([r.kid]);
    const checked = await verifyElsewhere(r.jws, keys);
    expect(checked.error).toBeUndefined();
    expect(checked.header).toEqual({ alg: 'EdDSA', typ: 'verification-receipt+jwt', kid: r.kid });
    const record = body(await t.api.get(`/api/v1/verifications/${id}`), RecordResponse).data;
    expect(checked.payload).toMatchObject({
      iss: 'http://localhost:8000',
      sub: accountId,
      jti: id,
      verification: {
        id,
        created_at: record.created_at,
        operation: 'verify',
        asked: { state: 'TX', license_number: '763827-sa', name: { name: 'Jose Munoz' } },
        answered: { verified: true, verdict: res.body.verdict, reasons: res.body.reasons, name_match: res.body.name_match, license_status: res.body.licensee.status },
        source: { id: 'tx-trec', snapshot_date: res.body.source.snapshot_date },
        matcher_version: 'name-match/2',
        http_status: 200,
        body_sha256: sha256(res.text),
      },
    });
    expect(typeof checked.payload!.iat).toBe('number');
    // Asked again: the receipt kept, not another.
    expect((await receipt(id)).jws).toBe(r.jws);
  });

  it('when one byte of a receipt changes then it no longer verifies', async () => {
    const id = (await t.api.get('/api/v1/licensees/verify?state=TX&license_number=200001-B')).headers['verification-id'];
    const r = await receipt(id);
    expect((await verifyElsewhere(tamper(r.jws), await jwks())).error).toBe('ERR_JWS_SIGNATURE_VERIFICATION_FAILED');
    expect((await verifyElsewhere(r.jws, await jwks())).payload?.verification.matcher_version).toBeNull();
  });

  it('when the JWKS is fetched then no key is needed and it may be cached', async () => {
    const res = await request(t.app).get('/.well-known/jwks.json');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    for (const k of body(res, Jwks).keys) expect(Object.keys(k)).not.toContain('d');
  });

  it('when another account asks for a record\'s receipt or reviews it then it is a 404', async () => {
    const id = (await t.api.get('/api/v1/licensees/verify?state=TX&license_number=200001-B')).headers['verification-id'];
    expect(errorDetail(await other.api.get(`/api/v1/verifications/${id}/receipt`), 404)).toContain(id);
    expect(errorDetail(await other.api.post(`/api/v1/verifications/${id}/reviews`).send({ decision: 'accepted', reason: 'ok' }), 404)).toContain(id);
    expect(errorDetail(await other.api.get(`/api/v1/verifications/${id}/reviews`), 404)).toContain(id);
  });

  it('when a process shares the store but not the key set then its receipts answer 503 saying why, and its start can say so', async () => {
    const id = (await t.api.get('/api/v1/licensees/verify?state=TX&license_number=200001-B')).headers['verification-id'];
    await receipt(id);
    const elsewhere = sideServices(t.store, testConfig(), { clock: systemClock, logger: pino({ level: 'silent' }) });
    expect(await elsewhere.signer.problem()).toMatch(/^the active receipt signing key [\w-]{43} is not in this process's key set/);
    const other = request.agent(createApp(testServices(t.graph, elsewhere)) as unknown as App).set('Authorization', `Bearer ${t.key}`);
    const fresh = (await other.get('/api/v1/licensees/verify?state=TX&license_number=200001-B')).headers['verification-id'];
    expect(errorDetail(await other.get(`/api/v1/verifications/${fresh}/receipt`), 503)).toContain('is not in this process\'s key set');
    // What it can read, it serves: a receipt already kept.
    expect(body(await other.get(`/api/v1/verifications/${id}/receipt`), ReceiptResponse).data.verification_id).toBe(id);
    expect(await t.side.signer.problem()).toBeUndefined();
  });

  it('when the keys rotate then old receipts still verify, new ones carry the new kid, and a key marked compromised is listed as such and its receipts signed again', async () => {
    const first = (await t.api.get('/api/v1/licensees/verify?state=TX&license_number=100001-B')).headers['verification-id'];
    const old = await receipt(first);
    const rotated = await t.side.signer.rotate();
    expect(rotated.kid).not.toBe(old.kid);
    const keys = await jwks();
    expect(keys.keys.map((k) => k.kid)).toEqual(expect.arrayContaining([old.kid, rotated.kid]));
    expect((await verifyElsewhere(old.jws, keys)).payload?.jti).toBe(first);
    const second = (await t.api.get('/api/v1/licensees/verify?state=TX&license_number=100001-B')).headers['verification-id'];
    const fresh = await receipt(second);
    expect(fresh.kid).toBe(rotated.kid);
    expect((await verifyElsewhere(fresh.jws, keys)).header?.kid).toBe(rotated.kid);

    await t.side.signer.markCompromised(old.kid);
    const listed = (await jwks()).keys.find((k) => k.kid === old.kid)!;
    expect(listed.revoked).toMatchObject({ reason: 'keyCompromise' });
    expect(listed.revoked!.revoked_at).toBeGreaterThan(0);
    const again = await receipt(first);
    expect(again.kid).toBe(rotated.kid);
    expect(again.jws).not.toBe(old.jws);
    expect((await verifyElsewhere(again.jws, await jwks())).payload?.jti).toBe(first);
    // The active key marked compromised: a new one signs from then on.
    await t.side.signer.markCompromised(rotated.kid);
    const third = await receipt(second);
    expect([old.kid, rotated.kid]).not.toContain(third.kid);
    expect((await t.side.signer.keys()).map((k) => k.status).sort()).toEqual(['active', 'compromised', 'compromised']);
  });
});

describe('reviews of answers', () => {
  const t = useApp(fixture('small'));
  const waiting = async () => body(await t.api.get('/api/v1/verifications?verdict=consider&reviewed=false&order=oldest&per_page=100'), VerificationPage).data;

  it('when consider answers are reviewed then each review is kept with its own receipt, the answer is unchanged, and the waiting list empties oldest first', async () => {
    const ids: string[] = [];
    for (const n of ['763827-SA', '900002-B']) ids.push((await t.api.get(`/api/v1/licensees/verify?state=TX&license_number=${n}`)).headers['verification-id']);
    await t.api.get('/api/v1/licensees/verify?state=TX&license_number=100001-B');
    expect((await waiting()).map((r) => r.id)).toEqual(ids);

    const before = body(await t.api.get(`/api/v1/verifications/${ids[0]}`), RecordResponse).data;
    const res = await t.api.post(`/api/v1/verifications/${ids[0]}/reviews`).send({ decision: 'escalated', reason: 'probation: ask the broker', reviewer_name: 'Pat Lee' });
    const review = body(res, ReviewResponse, 201).data;
    expect(res.headers.location).toBe(`/api/v1/verifications/${ids[0]}/reviews/${review.id}`);
    expect(review).toMatchObject({ verification_id: ids[0], decision: 'escalated', reason: 'probation: ask the broker', reviewer: { type: 'api_key', name: 'Pat Lee' } });
    expect(body(await t.api.get(res.headers.location), ReviewResponse).data).toEqual(review);
    const jwks = (await request(t.app).get('/.well-known/jwks.json')).body;
    const signed = await verifyElsewhere(review.receipt.jws, jwks);
    expect(signed.header?.typ).toBe('verification-review+jwt');
    expect(signed.payload).toMatchObject({ jti: review.id, review: { verification_id: ids[0], decision: 'escalated', verification_body_sha256: before.body_sha256 } });
    expect((await waiting()).map((r) => r.id)).toEqual([ids[1]]);

    const second = body(await t.api.post(`/api/v1/verifications/${ids[0]}/reviews`).send({ decision: 'accepted', reason: 'broker confirmed supervision' }), ReviewResponse, 201).data;
    const after = body(await t.api.get(`/api/v1/verifications/${ids[0]}`), RecordResponse).data;
    expect(after.reviews.map((v) => [v.id, v.decision])).toEqual([[review.id, 'escalated'], [second.id, 'accepted']]);
    const { reviews: _, ...answer } = after;
    const { reviews: __, ...answerBefore } = before;
    expect(answer).toEqual(answerBefore);
    expect(body(await t.api.get(`/api/v1/verifications/${ids[0]}/reviews`), ReviewList).data.map((v) => v.id)).toEqual([review.id, second.id]);
    expect(body(await t.api.get('/api/v1/verifications?reviewed=true'), VerificationPage).data.map((r) => r.id)).toEqual([ids[0]]);

    const csv = parse((await t.api.get('/api/v1/verifications.csv?reviewed=true').buffer(true)).text, { columns: true }) as Record<string, string>[];
    expect(csv).toHaveLength(1);
    expect(csv[0]).toMatchObject({ id: ids[0], reviews: '2', review_decision: 'accepted', review_reason: 'broker confirmed supervision', reviewed_by: expect.stringMatching(/^key [0-9a-f-]{36}$/), reviewed_at: second.created_at });

    await t.api.post(`/api/v1/verifications/${ids[1]}/reviews`).send({ decision: 'rejected', reason: 'suspended' });
    expect(await waiting()).toEqual([]);
  });

  it('when a review is malformed then it answers 422 naming the field, and an unknown review is a 404', async () => {
    const id = (await t.api.get('/api/v1/licensees/verify?state=TX&license_number=763827-SA')).headers['verification-id'];
    expect(validationErrors(await t.api.post(`/api/v1/verifications/${id}/reviews`).send({ decision: 'maybe', reason: 'x' }))[0]).toMatchObject({ loc: ['body', 'decision'] });
    expect(validationErrors(await t.api.post(`/api/v1/verifications/${id}/reviews`).send({ decision: 'accepted', reason: '   ' }))[0]).toMatchObject({ loc: ['body', 'reason'] });
    expect(validationErrors(await t.api.post(`/api/v1/verifications/${id}/reviews`).send({ decision: 'accepted', reason: 'ok', verdict: 'clear' }))[0]).toMatchObject({ loc: ['body'] });
    expect(validationErrors(await t.api.get('/api/v1/verifications?reviewed=maybe'))[0]).toMatchObject({ loc: ['query', 'reviewed'] });
    expect(errorDetail(await t.api.get(`/api/v1/verifications/${id}/reviews/0190a1b2-0000-7000-8000-000000000000`), 404)).toContain('no review');
    expect(body(await t.api.get(`/api/v1/verifications/${id}`), RecordResponse).data.reviews).toEqual([]);
  });
});

describe('PDFs an auditor keeps', () => {
  const t = {} as { graph: GraphAdapters; side: Awaited<ReturnType<typeof testStore>>; deps: ReturnType<typeof testServices>; app: App; api: ReturnType<typeof request.agent> };
  beforeAll(async () => {
    t.graph = (await testGraph(fixture('small'))).graph;
    t.side = await testStore();
    t.deps = testServices(t.graph, t.side);
    t.app = createApp(t.deps) as unknown as App;
    const key = (await t.side.accounts.createAccount({ email: 'pdf@example.com', plan: 'growth' })).key.key;
    t.api = request.agent(t.app).set('Authorization', `Bearer ${key}`);
    await t.deps.jobRunner.start();
  });
  afterAll(async () => {
    await t.deps?.jobRunner.stop();
    await t.graph?.close();
    await t.side?.store.close();
  });
  const pdf = async (path: string) => {
    const res = await t.api.get(path).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="?verification-[\w-]+\.pdf"?$/);
    return pdfText(res.body as Buffer);
  };

  it('when a record\'s certificate is downloaded then the PDF parsed back holds the licence, the verdict, the review and the receipt\'s kid', async () => {
    const id = (await t.api.get('/api/v1/licensees/verify?state=TX&license_number=763827-SA&name=Jose%20Munoz')).headers['verification-id'];
    await t.api.post(`/api/v1/verifications/${id}/reviews`).send({ decision: 'accepted', reason: 'probation noted by compliance' });
    const { text, pages } = await pdf(`/api/v1/verifications/${id}/certificate.pdf`);
    const receipt = body(await t.api.get(`/api/v1/verifications/${id}/receipt`), ReceiptResponse).data;
    expect(pages).toBe(1);
    for (const expected of ['Verification certificate', id, '763827-SA', 'consider', 'probation', 'name-match/2', 'probation noted by compliance', receipt.kid, receipt.jws.split('.')[2].slice(0, 40), `/api/v1/verifications/${id}/receipt`]) {
      expect(text).toContain(expected);
    }
    expect((await t.api.get('/api/v1/verifications/0190a1b2-0000-7000-8000-000000000000/certificate.pdf')).status).toBe(404);
  });

  it('when a job has not finished then its receipt and summary answer 409 naming why, and once it finishes they answer', async () => {
    await t.deps.jobRunner.stop();
    const job = body(await t.api.post('/api/v1/verification-jobs').send({ rows: [{ state: 'TX', license_number: '763827-SA' }] }), JobResponse, 202).data;
    try {
      expect(errorDetail(await t.api.get(`/api/v1/verification-jobs/${job.id}/receipt`), 409)).toContain('signed when it finishes');
      expect((await t.api.get(`/api/v1/verification-jobs/${job.id}/summary.pdf`)).status).toBe(409);
    } finally {
      await t.deps.jobRunner.start();
    }
    await vi.waitFor(async () => expect(body(await t.api.get(`/api/v1/verification-jobs/${job.id}`), JobResponse).data.status).toBe('completed'), { timeout: 30_000, interval: 50 });
    expect(body(await t.api.get(`/api/v1/verification-jobs/${job.id}/receipt`), JobReceiptResponse).data.job_id).toBe(job.id);
  });

  it('when a job finishes then its receipt, signed over every row and kept, is the one its summary PDF prints, and it verifies elsewhere', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => ({ state: 'TX', license_number: i % 3 ? '763827-SA' : '100001-B', name: i === 7 ? 'Jose Munoz' : undefined }));
    const job = body(await t.api.post('/api/v1/verification-jobs').send({ rows, label: 'audit' }), JobResponse, 202).data;
    await vi.waitFor(async () => expect(body(await t.api.get(`/api/v1/verification-jobs/${job.id}`), JobResponse).data.status).toBe('completed'), { timeout: 30_000, interval: 50 });
    const { text, pages } = await pdf(`/api/v1/verification-jobs/${job.id}/summary.pdf`);
    expect(pages).toBeGreaterThan(2);
    const results = [];
    for await (const r of t.deps.jobs.allResults((await t.side.accounts.listAccounts()).find((a) => a.email === 'pdf@example.com')!.id, job.id, {})) results.push(r);
    expect(results).toHaveLength(120);
    for (const r of [results[0], results[7], results[119]]) expect(text).toContain(r.verification_id);
    expect(text).toContain('clear 40, consider 80, not found 0');
    const jws = /eyJ[\w-]+\.[\w-]+\.[\w-]+/.exec(text.replace(/\s+/g, ''))![0];
    const kept = body(await t.api.get(`/api/v1/verification-jobs/${job.id}/receipt`), JobReceiptResponse).data;
    expect(kept).toMatchObject({ job_id: job.id, alg: 'EdDSA', typ: 'verification-job-summary+jwt', jws });
    expect(body(await t.api.get(`/api/v1/verification-jobs/${job.id}/receipt`), JobReceiptResponse).data.jws).toBe(jws);
    expect(text).toContain(`/api/v1/verification-jobs/${job.id}/receipt`);
    const stranger = (await t.side.accounts.createAccount({ email: 'stranger@example.com', plan: 'growth' })).key.key;
    expect(errorDetail(await request(t.app).get(`/api/v1/verification-jobs/${job.id}/receipt`).set('Authorization', `Bearer ${stranger}`), 404)).toContain(job.id);
    const checked = await verifyElsewhere(jws, (await request(t.app).get('/.well-known/jwks.json')).body);
    expect(checked.header?.typ).toBe('verification-job-summary+jwt');
    expect(checked.payload).toMatchObject({ jti: job.id, job: { id: job.id, label: 'audit', rows_done: 120, counts: { clear: 40, consider: 80, not_found: 0 } }, results: { rows: 120 } });
    // Each result's line as docs/verdicts.md gives it, for a third party to digest.
    const summaryLine = (r: { row: number; verification_id: string; verdict: string; reasons: string[] }) => `${r.row} ${r.verification_id} ${r.verdict} ${r.reasons.join(',')}\n`;
    const digest = createHash('sha256').update(results.map(summaryLine).join('')).digest('hex');
    expect(checked.payload!.results.sha256).toBe(digest);
    // Read a page at a time, the digest is the same across pages, at a page's edge and past it.
    for (const page of [7, 60, 119, 120, 121]) {
      expect(await createJobReceipts({ repo: t.side.jobsStore.repo, page }).digest(job.id)).toEqual({ rows: 120, sha256: digest });
    }
  });
});
