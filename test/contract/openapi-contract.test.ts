import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { generateApi } from 'swagger-typescript-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialId } from '../../src/domain/identity.js';
import { listen } from '../../src/http/server.js';
import { fixture, useApp } from '../helpers/graph.js';
import { servedDocument } from '../helpers/openapi.js';

const CLIENT_DIR = fileURLToPath(new URL('./client/', import.meta.url));
const TSC = fileURLToPath(new URL('../../node_modules/.bin/tsc', import.meta.url));

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

  it('when a TypeScript client is generated from it then typed uses of every operation compile and run against the service', async () => {
    const generated = path.join(CLIENT_DIR, 'generated');
    fs.rmSync(generated, { recursive: true, force: true });
    await generateApi({
      spec: structuredClone(doc) as never,
      output: generated,
      fileName: 'api.ts',
      httpClientType: 'fetch',
      generateUnionEnums: true,
      silent: true,
    });
    // Type errors fail here, with tsc's own report.
    const tsc = await promisify(execFile)(TSC, ['-p', path.join(CLIENT_DIR, 'tsconfig.json')]).catch((err: { stdout?: string; message: string }) => ({
      stdout: err.stdout ?? err.message,
      failed: true,
    }));
    expect('failed' in tsc ? tsc.stdout : '').toBe('');

    // Imported by path so that the project's type check never reaches the generated client.
    const { exercise } = (await import(path.join(CLIENT_DIR, 'usage.ts'))) as { exercise: (baseUrl: string, key: string, publish: () => Promise<void>) => Promise<Record<string, number>> };
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
