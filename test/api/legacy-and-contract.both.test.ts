import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { credentialId } from '../../src/domain/identity.js';
import { AFFILIATE_ROLES, RELATIONSHIP_TYPES } from '../../src/domain/vocabulary.js';
import { RawLicense } from '../../src/modules/legacy/legacy.routes.js';
import { LicenseeListResponse } from '../../src/modules/licensees/licensees.schemas.js';
import { SingleSupervisorResponse } from '../../src/modules/relationships/relationships.schemas.js';
import { PaginationMeta } from '../../src/http/common.schemas.js';
import { fixture, useApp } from '../helpers/graph.js';
import { ChangeFeed } from '../../src/modules/changes/changes.schemas.js';
import { body, errorDetail, validationErrors } from '../helpers/http.js';

describe('legacy and reserved endpoints', () => {
  const t = useApp(fixture('small'));

  const expectDeprecated = (res: request.Response, successor: string) => {
    expect(res.headers.deprecation).toBe('@1767225600');
    expect(res.headers.link).toBe(`<${successor}>; rel="successor-version"`);
  };

  it('when legacy search gets a last name without state then it searches every state, deprecated', async () => {
    const res = await t.api.get('/api/v1/licensees/search?last_name=berman');
    expect(body(res, LicenseeListResponse).data.map((l) => [l.state, l.license_number])).toEqual([['NY', '00055592']]);
    expectDeprecated(res, '/api/v1/licensees');
    const tx = body(await t.api.get('/api/v1/licensees/search?first_name=zoe&state=tx'), LicenseeListResponse);
    expect(tx.data.map((l) => l.license_number)).toEqual(['763828-SA']);
  });

  it('when legacy search gets neither name then 422', async () => {
    validationErrors(await t.api.get('/api/v1/licensees/search?state=TX'));
  });

  it('when the single supervisor is asked for then the brokerage link comes back, or null', async () => {
    const res = await t.api.get('/api/v1/licensees/TX/763827-SA/supervisor');
    expect(body(res, SingleSupervisorResponse).data?.license_number).toBe('100001-B');
    expectDeprecated(res, '/api/v1/licensees/TX/763827-SA/supervisors');
    expect(body(await t.api.get('/api/v1/licensees/TX/200001-B/supervisor'), SingleSupervisorResponse).data).toBeNull();
    errorDetail(await t.api.get('/api/v1/licensees/TX/NOPE/supervisor'), 404);
  });

  it('when the change feed is read on a graph only ever imported then it is empty, not reserved, and not deprecated', async () => {
    const res = await t.api.get('/api/v1/licensees/changes');
    expect(body(res, ChangeFeed)).toEqual({ data: [], next_cursor: null, has_more: false });
    expect(res.headers.deprecation).toBeUndefined();
  });

  it('when licenses are searched then the raw normalized shape comes back with normalized fields', async () => {
    const res = await t.api.get('/api/v1/licenses/search?state=TX&license_number=7638&status=active');
    const parsed = body(res, z.object({ data: z.array(RawLicense), meta: PaginationMeta }));
    expect(parsed.data.map((l) => [l.license_number, l.license_type_normalized, l.status_normalized])).toEqual([
      ['763827-SA', 'salesperson', 'active'],
    ]);
    expect(parsed.data[0].id).toBe(credentialId('TX', '763827-SA'));
    expectDeprecated(res, '/api/v1/licensees?state=TX&status=active');
  });

  it('when one licence is read raw then it has the normalized fields; unknown is 404', async () => {
    const res = await t.api.get('/api/v1/licenses/tx/763828-sa');
    expect(body(res, z.object({ data: RawLicense })).data).toMatchObject({ status: 'Expired less than 6 months', status_normalized: 'expired' });
    errorDetail(await t.api.get('/api/v1/licenses/TX/NOPE'), 404);
  });

  it('when licence types are counted then counts group by state and normalized type', async () => {
    const schema = z.object({ data: z.array(z.object({ state: z.string(), license_type: z.string().nullable(), count: z.number() })) });
    const all = body(await t.api.get('/api/v1/licenses/license-type-counts'), schema).data;
    expect(all).toContainEqual({ state: 'TX', license_type: 'salesperson', count: 3 });
    expect(all).toContainEqual({ state: 'NY', license_type: 'broker_associate', count: 1 });
    const ny = body(await t.api.get('/api/v1/licenses/license-type-counts?state=ny'), schema).data;
    expect(ny.every((r) => r.state === 'NY')).toBe(true);
  });
});

describe('the contract: OpenAPI, docs, errors and headers', () => {
  const t = useApp();

  it('when /openapi.json is read then it is OpenAPI 3.1, version 1.0.0, every operation with an id and error responses', async () => {
    const doc = (await t.api.get('/openapi.json').expect(200)).body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    const ops = Object.entries(doc.paths as Record<string, Record<string, { operationId: string; responses: Record<string, unknown>; deprecated?: boolean }>>).flatMap(
      ([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, ...op })),
    );
    expect(ops.map((o) => `${o.method} ${o.path}`).sort()).toEqual([
      'get /api/v1/coverage', 'get /api/v1/license-credentials/{credential_id}/hierarchy', 'get /api/v1/licensees',
      'get /api/v1/licensees/changes', 'get /api/v1/licensees/search', 'get /api/v1/licensees/verify',
      'get /api/v1/licensees/{state}/{license_number}', 'get /api/v1/licensees/{state}/{license_number}/affiliates',
      'get /api/v1/licensees/{state}/{license_number}/affiliations', 'get /api/v1/licensees/{state}/{license_number}/supervisor',
      'get /api/v1/licensees/{state}/{license_number}/supervisors', 'get /api/v1/licensees/{state}/{license_number}/roster-history',
      'get /api/v1/licensees/{state}/{license_number}/roster-history.csv', 'get /api/v1/licenses/license-type-counts',
      'get /api/v1/licenses/search', 'get /api/v1/licenses/{state}/{license_number}', 'get /api/v1/readiness',
      'get /api/v1/sources', 'get /api/v1/sources/coverage', 'get /api/v1/states', 'get /health', 'post /api/v1/licensees/batch',
      'get /api/v1/account', 'get /api/v1/account/usage', 'get /api/v1/api-keys', 'post /api/v1/api-keys', 'delete /api/v1/api-keys/{key_id}',
      'post /api/v1/watchlist', 'get /api/v1/watchlist', 'delete /api/v1/watchlist/{state}/{license_number}',
      'put /api/v1/watchlist/states/{state}', 'get /api/v1/watchlist/expiry-alerts', 'put /api/v1/watchlist/expiry-alerts', 'get /api/v1/watchlist/states', 'delete /api/v1/watchlist/states/{state}',
      'post /api/v1/webhooks', 'get /api/v1/webhooks', 'get /api/v1/webhooks/{id}', 'patch /api/v1/webhooks/{id}', 'delete /api/v1/webhooks/{id}',
      'post /api/v1/webhooks/{id}/rotate-secret', 'get /api/v1/webhooks/{id}/deliveries', 'post /api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver',
      'get /api/v1/verifications', 'get /api/v1/verifications.csv', 'get /api/v1/verifications/{id}',
      'post /api/v1/verification-jobs', 'get /api/v1/verification-jobs', 'get /api/v1/verification-jobs/{id}', 'delete /api/v1/verification-jobs/{id}',
      'get /api/v1/verification-jobs/{id}/results', 'get /api/v1/verification-jobs/{id}/results.csv',
      'get /api/v1/verification-jobs/{id}/summary.pdf', 'get /api/v1/verification-jobs/{id}/receipt', 'get /api/v1/verifications/{id}/certificate.pdf',
      'get /api/v1/verifications/{id}/receipt', 'post /api/v1/verifications/{id}/reviews', 'get /api/v1/verifications/{id}/reviews',
      'get /api/v1/verifications/{id}/reviews/{review_id}', 'get /.well-known/jwks.json',
    ].sort());
    // What receivers get is described under `webhooks` (OpenAPI 3.1), signature headers and all.
    const hook = doc.webhooks['licence-change'].post;
    expect(hook.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/WebhookPayload' });
    expect(hook.parameters.map((p: { in: string; name: string }) => `${p.in} ${p.name}`).sort()).toEqual(['header webhook-id', 'header webhook-signature', 'header webhook-timestamp']);
    expect(doc.components.schemas.WebhookPayload.properties.data).toEqual({ $ref: '#/components/schemas/ChangeEvent' });
    // A roster job's event apart from the change feed's, signed the same way.
    const jobHook = doc.webhooks['verification-job'].post;
    expect(jobHook.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/VerificationJobEvent' });
    expect(jobHook.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['webhook-id', 'webhook-signature', 'webhook-timestamp']);
    // Uploads take CSV as well as JSON, and answer 202.
    const upload = doc.paths['/api/v1/verification-jobs'].post;
    expect(Object.keys(upload.requestBody.content).sort()).toEqual(['application/json', 'text/csv']);
    expect(Object.keys(upload.responses)).toContain('202');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const op of ops) {
      const isPublic = op.path === '/health' || op.path === '/api/v1/coverage' || op.path === '/.well-known/jwks.json';
      expect((op as { security?: unknown[] }).security, `${op.method} ${op.path}`).toEqual(isPublic ? [] : [{ bearerAuth: [] }]);
      if (!isPublic) expect(Object.keys(op.responses), `${op.method} ${op.path}`).toContain('401');
    }
    expect(Object.keys(doc.paths['/api/v1/licensees/batch'].post.responses)).toEqual(expect.arrayContaining(['402', '429']));
    expect(doc.paths['/api/v1/licensees/verify'].get.responses['200'].headers).toHaveProperty('RateLimit');
    for (const op of ops) {
      expect(op.operationId, `${op.method} ${op.path}`).toMatch(/^[a-z][A-Za-z]+$/);
      // Every operation documents its success (202 for an upload done later, 201 for a review kept) and 422.
      const success = ({ createVerificationJob: '202', createVerificationReview: '201' } as Record<string, string>)[op.operationId] ?? '200';
      expect(Object.keys(op.responses), `${op.method} ${op.path}`).toEqual(expect.arrayContaining([success, '422']));
    }
    expect(new Set(ops.map((o) => o.operationId)).size).toBe(ops.length);
    expect(ops.filter((o) => o.deprecated).map((o) => o.operationId).sort()).toEqual(['getLicense', 'legacyGetSupervisor', 'legacySearchLicensees', 'searchLicenses']);
    expect(doc.components.schemas.AffiliateRole.enum).toEqual([...AFFILIATE_ROLES]);
    expect(doc.components.schemas.RelationshipType.enum).toEqual([...RELATIONSHIP_TYPES]);
    expect(doc.components.schemas.Licensee.required.sort()).toEqual(
      ['id', 'license_number', 'state', 'relationship_coverage', 'supervising_brokerages', 'supervising_brokerages_detail',
        'designated_brokers', 'current_affiliate_roles', 'disciplinary_actions', 'data_source_notes'].sort(),
    );
    const getLicensee = doc.paths['/api/v1/licensees/{state}/{license_number}'].get;
    expect(getLicensee.responses['404']).toBeDefined();
    expect(getLicensee.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(['path:state', 'path:license_number']);
  });

  it('when /docs is opened then Swagger UI is served', async () => {
    const res = await t.api.get('/docs/').expect(200);
    expect(res.text).toContain('swagger-ui');
  });

  it('when a path is unknown then 404 with a detail and a request id', async () => {
    const res = await t.api.get('/api/v1/nothing-here');
    expect(errorDetail(res, 404)).toMatch(/Not Found/);
  });

  it('when the client sends a sane X-Request-ID then it is echoed; an unsafe one is replaced', async () => {
    expect((await t.api.get('/health').set('X-Request-ID', 'abc-123.x')).headers['x-request-id']).toBe('abc-123.x');
    const replaced = (await t.api.get('/health').set('X-Request-ID', 'bad id\twith spaces')).headers['x-request-id'];
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('when any response is sent then helmet headers are set and Express is not advertised', async () => {
    const res = await t.api.get('/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});
