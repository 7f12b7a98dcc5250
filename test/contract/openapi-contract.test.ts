import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialId } from '../../src/domain/identity.js';
import { listen } from '../../src/http/server.js';
import { fixture, useApp } from '../helpers/graph.js';
import { servedDocument } from '../helpers/openapi.js';
import { GENERATED_DIR, clientFiles } from '../../tools/client/generate.js';
import { exercise } from './client/usage.js';


describe('the served OpenAPI document as a contract', () => {
  const t = useApp(fixture('small'));
  const doc = servedDocument().doc;
  let server: Server;
  beforeAll(async () => {
    server = await listen(t.app as never, { port: 0, host: '127.0.0.1' });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('when the document is checked by an OpenAPI 3.1 validator then it is valid', async () => {
    const result = await new Validator().validate(structuredClone(doc) as never);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('when a nullable object is documented then null satisfies it (anyOf with null, never allOf)', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toMatch(/"allOf":\[\{"\$ref":"[^"]+"\},\{"type":\["object","null"\]\}\]/);
    const verify = doc.paths['/api/v1/licensees/verify'].get;
    expect(JSON.stringify(verify.responses['200'])).toContain('VerifyResponse');
    expect(servedDocument().checkResponse('GET', '/api/v1/licensees/verify', 200, { verified: false, licensee: null, verdict: 'not_found', reasons: [], name_match: null, source: null })).toBeUndefined();
  });

  it('when the client is generated again from the served document then it is the committed one (npm run client:generate)', async () => {
    const files = await clientFiles(structuredClone(doc) as never);
    for (const [name, text] of Object.entries(files)) expect(fs.readFileSync(path.join(GENERATED_DIR, name), 'utf8'), `clients/typescript/src/generated/${name} is stale: run npm run client:generate`).toBe(text);
  });

  it('when the committed client calls every operation (typed uses that npm test type-checks) then each answers its documented success', async () => {
    const { port } = server.address() as AddressInfo;
    const publish = async () => {
      const runId = randomUUID();
      const at = new Date().toISOString();
      await t.side.changes.log.stage({ id: runId, source: 'tx-trec', state: 'TX', snapshot_date: at.slice(0, 10) }, [
        { type: 'status_changed', state: 'TX', license_number: '763827-SA', license_credential_id: credentialId('TX', '763827-SA'), old: { status: 'Active' }, new: { status: 'Inactive' }, relationship: null, snapshot_date: at.slice(0, 10), detected_at: at, source: 'tx-trec' },
      ]);
      await t.side.changes.log.commit(runId);
    };
    const statuses = await exercise(`http://127.0.0.1:${port}`, t.key, publish);
    const operations = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    expect(Object.keys(statuses).sort()).toEqual(operations.sort());
    // Each answers its documented success: 200, 201 for a review made, or 202 for an upload done later.
    const success: Record<string, number> = { createVerificationJob: 202, createVerificationReview: 201 };
    expect(Object.entries(statuses).filter(([op, status]) => status !== (success[op] ?? 200))).toEqual([]);
  });
});
