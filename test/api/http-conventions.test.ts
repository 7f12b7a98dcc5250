import net from 'node:net';
import type { Server } from 'node:http';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiKey } from '../../src/modules/accounts/accounts.schemas.js';
import { AffiliatesResponse, AffiliationsResponse, SupervisorsResponse } from '../../src/modules/relationships/relationships.schemas.js';
import { BatchVerifyResponse, LicenseeListResponse, VerifyResponse } from '../../src/modules/licensees/licensees.schemas.js';
import { listen } from '../../src/http/server.js';
import { JURISDICTION_NAMES } from '../../src/domain/jurisdictions.js';
import { fixture, testApp, testGraph, testStore, useApp } from '../helpers/graph.js';
import { body, errorDetail, validationErrors } from '../helpers/http.js';

describe('HTTP conventions', () => {
  const t = useApp(fixture('small'));

  describe('methods', () => {
    const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
    const sample = (path: string) =>
      path
        .replace('{state}', 'TX')
        .replace('{license_number}', '763827-SA')
        .replace('{credential_id}', '00000000-0000-4000-8000-000000000000')
        .replace('{key_id}', '00000000-0000-4000-8000-000000000000');

    it('when the docs page or an asset of it gets a method that would change it then 405, not the page; the root names where to go', async () => {
      for (const path of ['/docs', '/docs/', '/docs/swagger-ui.css']) {
        for (const method of ['put', 'patch', 'delete', 'post'] as const) {
          const res = await request(t.app)[method](path);
          expect(res.status, `${method} ${path}`).toBe(405);
          expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
        }
      }
      expect((await request(t.app).get('/docs/')).status).toBe(200);
      const root = await request(t.app).get('/');
      expect(root.status).toBe(200);
      expect(root.body).toEqual({ service: 'Licensee Verification Service', docs: '/docs', openapi: '/openapi.json', dashboard: '/dashboard', health: '/health', api: '/api/v1' });
      for (const link of ['/docs/', '/openapi.json', '/dashboard/sign-in', '/health']) expect((await request(t.app).get(link)).status, link).toBe(200);
      expect((await request(t.app).delete('/')).status).toBe(405);
    });

    it('when a documented path gets a method it does not take then 405 with Allow and a detail, with or without a key', async () => {
      const doc = (await t.api.get('/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
      let checked = 0;
      for (const [path, ops] of Object.entries(doc.paths)) {
        const taken = Object.keys(ops).map((m) => m.toUpperCase());
        const allow = [...new Set([...taken, ...(taken.includes('GET') ? ['HEAD'] : []), 'OPTIONS'])].sort().join(', ');
        for (const method of METHODS.filter((m) => !allow.split(', ').includes(m))) {
          const res = await request(t.app)[method.toLowerCase() as 'put'](sample(path));
          expect(res.status, `${method} ${path}`).toBe(405);
          expect(res.headers.allow, `${method} ${path}`).toBe(allow);
          if (method !== 'HEAD') expect(errorDetail(res, 405)).toMatch(new RegExp(`^Method Not Allowed: ${method} `));
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(60);
      const verify = await t.api.put('/api/v1/licensees/verify?state=TX&license_number=763827-SA');
      expect(errorDetail(verify, 405)).toBe('Method Not Allowed: PUT /api/v1/licensees/verify (allowed: GET, HEAD, OPTIONS)');
    });

    it('when OPTIONS is sent then 204 with Allow and no body, without a key', async () => {
      const res = await request(t.app).options('/api/v1/licensees/verify');
      expect(res.status).toBe(204);
      expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
      expect(res.text).toBe('');
      expect((await request(t.app).options('/api/v1/api-keys')).headers.allow).toBe('GET, HEAD, OPTIONS, POST');
      expect((await request(t.app).options('/api/v1/licensees/TX/1/affiliates')).headers.allow).toBe('GET, HEAD, OPTIONS');
    });

    it('when a path is unknown then it stays 404 whatever the method', async () => {
      errorDetail(await t.api.put('/api/v1/no-such-thing'), 404);
      errorDetail(await request(t.app).options('/nothing'), 404);
    });
  });

  describe('bodies that are not JSON', () => {
    it('when a batch is sent form-encoded then 422 at body naming the JSON content type', async () => {
      const res = await t.api.post('/api/v1/licensees/batch').type('form').send('licenses=TX');
      const [issue] = validationErrors(res);
      expect(issue).toMatchObject({ loc: ['body'], type: 'content_type_invalid' });
      expect(issue.msg).toContain('Content-Type: application/json');
    });

    it('when a key is created with a text/plain body then 422 and no key is made; no body at all is fine', async () => {
      const before = body(await t.api.get('/api/v1/api-keys'), z.array(ApiKey)).length;
      const res = await t.api.post('/api/v1/api-keys').type('text/plain').send('{"label":"ci"}');
      expect(validationErrors(res)[0]).toMatchObject({ loc: ['body'], type: 'content_type_invalid', ctx: { received: 'text/plain' } });
      expect(body(await t.api.get('/api/v1/api-keys'), z.array(ApiKey))).toHaveLength(before);
      const vendorJson = await t.api.post('/api/v1/api-keys').type('application/vnd.api+json').send('{"label":"vendor"}');
      expect(vendorJson.status).toBe(200);
      expect(vendorJson.body.label).toBe('vendor');
    });
  });

  describe('one rule for a state code and a licence number', () => {
    it('when batch items carry states or numbers that verify refuses then 422 points at each item', async () => {
      const licenses = [
        { state: 'TX', license_number: '763827-SA' },
        { state: '12', license_number: '1' },
        { state: 'ТХ', license_number: '1' },
        { state: 'T\u0000', license_number: '1' },
        { state: '🙂', license_number: '1' },
        { state: 'TX', license_number: '   ' },
      ];
      const detail = validationErrors(await t.api.post('/api/v1/licensees/batch').send({ licenses }));
      expect(detail.map((d) => [d.loc, d.msg])).toEqual([
        [['body', 'licenses', 1, 'state'], 'must be a two-letter state code'],
        [['body', 'licenses', 2, 'state'], 'must be a two-letter state code'],
        [['body', 'licenses', 3, 'state'], 'must be a two-letter state code'],
        [['body', 'licenses', 4, 'state'], 'must be a two-letter state code'],
        [['body', 'licenses', 5, 'license_number'], 'must not be empty'],
      ]);
      // verify words the same refusals the same way
      const verify = validationErrors(await t.api.get('/api/v1/licensees/verify').query({ state: 'ТХ', license_number: '   ' }));
      expect(verify.map((d) => d.msg)).toEqual(['must be a two-letter state code', 'must not be empty']);
    });

    it('when a code is no U.S. jurisdiction then every operation taking a state answers 422 listing the codes; a jurisdiction with no data is a normal answer', async () => {
      const unknown: [string, string, object?][] = [
        ['get', '/api/v1/licensees/verify?state=QQ&license_number=1'],
        ['get', '/api/v1/licensees?state=zz'],
        ['get', '/api/v1/licensees/ZZ/1'],
        ['get', '/api/v1/licensees/ZZ/1/affiliations'],
        ['get', '/api/v1/licensees/ZZ/1/supervisors'],
        ['get', '/api/v1/licensees/ZZ/1/affiliates'],
        ['get', '/api/v1/licensees/ZZ/1/supervisor'],
        ['get', '/api/v1/licensees/search?state=ZZ&last_name=a'],
        ['get', '/api/v1/licenses/ZZ/1'],
        ['get', '/api/v1/licenses/search?state=ZZ'],
        ['get', '/api/v1/licenses/license-type-counts?state=ZZ'],
        ['get', '/api/v1/licensees/changes?state=ZZ'],
        ['put', '/api/v1/watchlist/states/ZZ'],
        ['delete', '/api/v1/watchlist/states/ZZ'],
        ['delete', '/api/v1/watchlist/ZZ/1'],
        ['post', '/api/v1/watchlist', { items: [{ state: 'TX', license_number: '1' }, { state: 'QQ', license_number: '1' }] }],
        ['post', '/api/v1/licensees/batch', { licenses: [{ state: 'TX', license_number: '1' }, { state: 'qq', license_number: '1' }] }],
      ];
      for (const [method, path, sent] of unknown) {
        const req = t.api[method as 'get'](path);
        const [issue, ...more] = validationErrors(await (sent ? req.send(sent) : req));
        expect(more, `${method} ${path}`).toEqual([]);
        expect(issue.loc.at(-1), `${method} ${path}`).toBe('state');
        if (sent) expect(issue.loc.slice(0, 3)).toEqual(['body', Object.keys(sent)[0], 1]);
        expect(issue, `${method} ${path}`).toMatchObject({ type: 'enum', msg: expect.stringContaining('U.S. jurisdiction') });
        expect(String(issue.ctx?.expected).split(', ')).toEqual(expect.arrayContaining(['TX', 'DC', 'PR', 'WY']));
      }
      // Nothing of the refused calls reached the account.
      expect(body(await t.api.get('/api/v1/watchlist/states'), z.object({ data: z.array(z.unknown()) }).passthrough()).data).toEqual([]);
      expect(body(await t.api.get('/api/v1/watchlist'), z.object({ data: z.array(z.unknown()) }).passthrough()).data).toEqual([]);
      // Wyoming has no data here: a miss, not an error.
      expect(body(await t.api.get('/api/v1/licensees/verify?state=wy&license_number=1'), VerifyResponse)).toEqual({ verified: false, licensee: null, verdict: 'not_found', reasons: ['not_covered'], name_match: null, source: null });
      expect(errorDetail(await t.api.get('/api/v1/licensees/WY/1'), 404)).toBeTruthy();
      const doc = (await t.api.get('/openapi.json').expect(200)).body;
      expect(doc.components.schemas.BatchVerifyItem.properties.state.description).toContain('AL, AK, AZ');
    });

    it('when the OpenAPI document is read then it is as strict as the server: every state a listed code, dates, lists and labels patterned, none empty', async () => {
      const doc = (await t.api.get('/openapi.json').expect(200)).body;
      const codes = Object.keys(JURISDICTION_NAMES);
      expect(doc.components.schemas.BatchVerifyItem.properties.state).toMatchObject({ type: 'string', enum: codes });
      expect(doc.components.schemas.BatchVerifyItem.properties.state.description).toMatch(/Lower case is accepted too/);
      expect(doc.components.schemas.BatchVerifyItem.properties.license_number).toMatchObject({ minLength: 1, maxLength: 128 });
      type Param = { name: string; in: string; schema: { enum?: string[]; pattern?: string; minLength?: number } };
      const params = Object.values(doc.paths as Record<string, Record<string, { parameters?: Param[] }>>).flatMap((ops) => Object.values(ops).flatMap((op) => op.parameters ?? []));
      const states = params.filter((p) => p.name === 'state');
      expect(states.length).toBeGreaterThan(10);
      for (const p of states) expect(p.schema.enum, `${p.in} state`).toEqual(codes);
      // What the server refuses, a client built from the document cannot send: an empty value, a day out of form.
      const patterned = params.filter((p) => ['from', 'to', 'since', 'as_of', 'verdict'].includes(p.name));
      expect(new Set(patterned.map((p) => p.name))).toEqual(new Set(['from', 'to', 'since', 'as_of', 'verdict']));
      for (const p of patterned) {
        const pattern = new RegExp(p.schema.pattern!);
        expect(pattern.test(''), `${p.name} accepts an empty value`).toBe(false);
        expect(pattern.test(p.name === 'verdict' ? 'consider,not_found' : '2024-06-30'), p.name).toBe(true);
        if (p.name !== 'verdict') expect(pattern.test('2024-6-30'), p.name).toBe(false);
      }
      const label = new RegExp(doc.components.schemas.CreateApiKeyRequest.properties.label.pattern);
      expect(label.test('nightly job')).toBe(true);
      expect(label.test('bell\u0007')).toBe(false);
      // Rules across parameters are stated where the parameter is.
      const since = params.find((p) => p.name === 'since') as Param & { description?: string };
      expect(since.description).toMatch(/never with `cursor`/);
    });

    it('when valid items come in lower case then results echo them exactly as sent', async () => {
      const res = body(await t.api.post('/api/v1/licensees/batch').send({ licenses: [{ state: 'tx', license_number: ' 763827-sa ' }] }), BatchVerifyResponse);
      expect(res.data[0]).toMatchObject({ state: 'tx', license_number: ' 763827-sa ', verified: true });
    });
  });

  describe('enum filters in any letter case', () => {
    it('when status and license_type come capitalised then they filter as in lower case', async () => {
      const lower = body(await t.api.get('/api/v1/licensees?state=TX&status=active&license_type=salesperson'), LicenseeListResponse);
      const mixed = body(await t.api.get('/api/v1/licensees?state=TX&status=Active&license_type=SalesPerson'), LicenseeListResponse);
      expect(lower.meta.total).toBeGreaterThan(0);
      expect(mixed).toEqual(lower);
    });

    it('when affiliate_role and relationship_type come in upper case then relationships filter as in lower case', async () => {
      const q = 'affiliate_role=SALESPERSON&relationship_type=Sponsoring_Broker';
      const supervisors = body(await t.api.get(`/api/v1/licensees/TX/763827-SA/supervisors?${q}`), SupervisorsResponse);
      expect(supervisors.data.map((s) => s.license_number)).toEqual(['100001-B']);
      const affiliates = body(await t.api.get(`/api/v1/licensees/TX/100001-B/affiliates?${q}`), AffiliatesResponse);
      expect(affiliates.data.map((a) => a.license_number)).toContain('763827-SA');
      body(await t.api.get(`/api/v1/licensees/TX/763827-SA/affiliations?${q}&include_inactive=TRUE`), z.unknown(), 422);
      const history = body(await t.api.get(`/api/v1/licensees/TX/763827-SA/affiliations?${q}&include_inactive=true`), AffiliationsResponse);
      expect(history.data).toHaveLength(2);
    });

    it('when a value is outside the list then 422 lists the allowed ones, in any case', async () => {
      const [issue] = validationErrors(await t.api.get('/api/v1/licensees?state=TX&status=Gone'));
      expect(issue).toMatchObject({ loc: ['query', 'status'], type: 'enum', input: 'Gone', ctx: { expected: 'active, inactive, expired, suspended' } });
    });
  });

  describe('deprecated operations name their successor for the request at hand', () => {
    const link = (res: request.Response) => res.headers.link;

    it('when the legacy search has a state then Link is the canonical search with the same names and state', async () => {
      const res = await t.api.get('/api/v1/licensees/search?first_name=zoe&last_name=q%20r&state=tx&per_page=5');
      expect(res.status).toBe(200);
      expect(link(res)).toBe('</api/v1/licensees?state=tx&first_name=zoe&last_name=q+r&per_page=5>; rel="successor-version"');
      expect(link(await t.api.get('/api/v1/licensees/search?last_name=berman'))).toBe('</api/v1/licensees>; rel="successor-version"');
    });

    it('when a legacy path names a licence then Link is the canonical path of that licence', async () => {
      expect(link(await t.api.get('/api/v1/licensees/tx/763827-sa/supervisor'))).toBe(
        '</api/v1/licensees/tx/763827-sa/supervisors>; rel="successor-version"',
      );
      expect(link(await t.api.get('/api/v1/licenses/TX/763827%20SA'))).toBe('</api/v1/licensees/TX/763827%20SA>; rel="successor-version"');
      expect(link(await t.api.get('/api/v1/licenses/search?state=TX&name=quinn&license_number=2'))).toBe(
        '</api/v1/licensees?state=TX&name=quinn>; rel="successor-version"',
      );
    });
  });

  describe('dates', () => {
    it('when a date is outside the days the stores hold then every operation taking one answers 422 naming the range, never 503', async () => {
      const doc = (await t.api.get('/openapi.json').expect(200)).body as { paths: Record<string, Record<string, { parameters?: { in: string; name: string; schema?: { format?: string } }[] }>> };
      const calls: { path: string; name: string; dateOnly: boolean }[] = [];
      for (const [path, ops] of Object.entries(doc.paths)) {
        for (const p of ops.get?.parameters ?? []) {
          if (p.in === 'query' && (p.schema?.format === 'date' || ['from', 'to', 'since', 'as_of'].includes(p.name))) calls.push({ path, name: p.name, dateOnly: p.schema?.format === 'date' });
        }
      }
      // as_of on the relationship reads, since on the change feed, from and to on the records and their CSV.
      expect(calls.length).toBeGreaterThanOrEqual(6);
      const filled = (path: string) => path.replace('{state}', 'TX').replace('{license_number}', '763827-SA').replace('{number}', '763827-SA').replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');
      for (const { path, name, dateOnly } of calls) {
        // A `from` or `to` that takes a time as well (the records') is held to the same days.
        for (const value of ['9999-12-31', '0000-01-01', '1899-12-31', '3000-01-01', ...(['from', 'to'].includes(name) && !dateOnly ? ['0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z'] : [])]) {
          const detail = validationErrors(await t.api.get(filled(path)).query({ [name]: value }));
          expect(detail, `${path} ${name}=${value}`).toContainEqual(expect.objectContaining({ loc: ['query', name], msg: 'must be a day from 1900-01-01 to 2999-12-31' }));
        }
      }
      // The edges are days like any other.
      for (const day of ['1900-01-01', '2999-12-31']) expect((await t.api.get('/api/v1/verifications').query({ from: day })).status).toBe(200);
    });
  });

  describe('integer parameters', () => {
    it('when page is not an integer, or past 2^53, then type and message agree', async () => {
      expect(validationErrors(await t.api.get('/api/v1/licensees?state=TX&page=abc'))[0]).toMatchObject({
        loc: ['query', 'page'], type: 'int_parsing', msg: 'must be an integer',
      });
      expect(validationErrors(await t.api.get('/api/v1/licensees?state=TX&page=9007199254740993'))[0]).toMatchObject({
        loc: ['query', 'page'], type: 'less_than_equal', msg: 'must be at most 9007199254740991',
      });
      expect(validationErrors(await t.api.get('/api/v1/licensees?state=TX&per_page=101'))[0]).toMatchObject({
        type: 'less_than_equal', msg: 'must be at most 100', ctx: { max: 100 },
      });
    });
  });

  describe('errors Node answers before Express', () => {
    let server: Server;
    let port: number;
    beforeAll(async () => {
      server = await listen(t.app as never, { port: 0, host: '127.0.0.1' });
      port = (server.address() as net.AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const raw = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
        let out = '';
        socket.on('data', (d) => (out += d));
        socket.on('end', () => resolve(out));
        socket.on('error', reject);
      });
    const parse = (response: string) => {
      const [head, payload] = response.split('\r\n\r\n');
      return { status: Number(head.split(' ')[1]), head, body: JSON.parse(payload) as unknown };
    };

    it('when the headers are too large then 431 with a JSON detail', async () => {
      const res = parse(await raw(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
      expect(res.status).toBe(431);
      expect(res.head).toMatch(/content-type: application\/json/i);
      expect(z.object({ detail: z.string() }).parse(res.body).detail).toMatch(/headers are larger/);
    });

    it('when the request cannot be parsed then 400 with a JSON detail', async () => {
      const res = parse(await raw('NOT HTTP AT ALL\r\n\r\n'));
      expect(res.status).toBe(400);
      expect(z.object({ detail: z.string() }).parse(res.body).detail).toMatch(/malformed HTTP request/);
    });
  });

  describe('the interactive docs', () => {
    it('when /docs is served then its CSP does not upgrade requests to https', async () => {
      const res = await request(t.app).get('/docs/').expect(200);
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    });
  });
});

describe('cross-origin use', () => {
  const EXPOSED = 'X-Request-ID,ETag,RateLimit,RateLimit-Policy,Retry-After,Deprecation,Sunset,Link,WWW-Authenticate,Verification-Id,Location,Idempotent-Replayed';
  const apps: Record<string, App> = {};
  let close: () => Promise<void>;
  let key: string;
  beforeAll(async () => {
    const { graph } = await testGraph(fixture('small'));
    const side = await testStore();
    key = (await side.accounts.createAccount({ email: 'cors@example.com', plan: 'starter' })).key.key;
    apps.off = testApp(graph, side) as unknown as App;
    apps.list = testApp(graph, side, { CORS_ORIGINS: ['https://app.example.com', 'http://localhost:3000'] }) as unknown as App;
    apps.any = testApp(graph, side, { CORS_ORIGINS: '*' }) as unknown as App;
    close = async () => {
      await graph.close();
      await side.store.close();
    };
  });
  afterAll(() => close());

  const preflight = (app: App, origin: string) =>
    request(app)
      .options('/api/v1/licensees/batch')
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type');

  it('when an allowed origin sends a preflight then 204 without a key, allowing the auth and JSON headers', async () => {
    const res = await preflight(apps.list, 'https://app.example.com');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(res.headers['access-control-allow-headers']).toMatch(/Authorization/);
    expect(res.headers['access-control-allow-headers']).toMatch(/Content-Type/);
    expect(res.headers['access-control-allow-methods']).toMatch(/POST/);
    expect(res.headers.vary).toMatch(/Origin/);
  });

  it('when an allowed origin calls then the response names it and exposes the API headers', async () => {
    const res = await request(apps.list)
      .get('/api/v1/licensees/verify?state=TX&license_number=763827-SA')
      .set('Origin', 'http://localhost:3000')
      .set('Authorization', `Bearer ${key}`);
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(res.headers['access-control-expose-headers']).toBe(EXPOSED);
    // A refusal is readable cross-origin too.
    const refused = await request(apps.list).get('/api/v1/account').set('Origin', 'http://localhost:3000');
    expect(refused.status).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe('http://localhost:3000');
  });

  it('when another origin calls then no CORS header allows it', async () => {
    const res = await preflight(apps.list, 'https://evil.example.net');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('when any origin is configured then * is answered', async () => {
    const res = await preflight(apps.any, 'https://anything.example.org');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('when CORS is not configured, or the path is outside /api/v1, then no CORS headers are sent', async () => {
    const off = await preflight(apps.off, 'https://app.example.com');
    expect(off.status).toBe(204);
    expect(off.headers['access-control-allow-origin']).toBeUndefined();
    const health = await request(apps.any).get('/health').set('Origin', 'https://app.example.com');
    expect(health.headers['access-control-allow-origin']).toBeUndefined();
  });
});
