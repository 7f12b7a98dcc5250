import { expect } from 'vitest';
import type { z } from 'zod';
import type { Response } from 'supertest';
import { ErrorBody, ValidationErrorBody } from '../../src/http/common.schemas.js';
import { servedDocument } from './openapi.js';

/**
 * Parses a response body with its zod schema and checks it against the served OpenAPI document
 * (the operation's response for that status); a body that does not match either fails the test.
 */
export function body<S extends z.ZodType>(res: Response, schema: S, status = 200): z.output<S> {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.headers['content-type']).toMatch(/application\/json/);
  expect(res.headers['x-request-id']).toBeTruthy();
  const parsed = schema.safeParse(res.body);
  if (!parsed.success) throw new Error(`body does not match its schema: ${parsed.error.message}\n${JSON.stringify(res.body)}`);
  const req = (res as Response & { req: { method: string; path: string } }).req;
  const problem = servedDocument().checkResponse(req.method, req.path, res.status, res.body);
  if (problem) throw new Error(`body does not match the served /openapi.json: ${problem}\n${JSON.stringify(res.body)}`);
  return parsed.data;
}

/** A 422 body; returns its detail entries. */
export function validationErrors(res: Response) {
  const parsed = body(res, ValidationErrorBody, 422);
  expect(parsed.detail?.length).toBeGreaterThan(0);
  return parsed.detail!;
}

export function errorDetail(res: Response, status: number): string {
  return body(res, ErrorBody, status).detail;
}

/** Every field of the spec's Licensee table, exactly. */
export const LICENSEE_FIELDS = [
  'id', 'full_name', 'license_number', 'license_number_display', 'license_type', 'license_type_display', 'status',
  'state', 'issue_date', 'expiration_date', 'brokerage', 'relationship_coverage', 'brokerage_source',
  'brokerage_confidence', 'supervision_empty_reason', 'supervising_brokerages', 'supervising_brokerages_detail',
  'employment_type', 'designated_brokers', 'designated_broker', 'current_affiliate_roles', 'last_verified',
  'first_name', 'middle_name', 'last_name', 'business_name', 'city', 'address', 'disciplinary_actions',
  'data_source_notes',
].sort();
