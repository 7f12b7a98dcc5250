import { uuidParam } from '../../http/common.schemas.js';
import { DEMO_KEY_ID } from '../../http/examples.js';
import { z } from '../../http/zod.js';
import { PLAN_NAMES } from '../../domain/plans.js';

export const Account = z
  .object({
    id: z.string().openapi({ format: 'uuid' }),
    email: z.string(),
    plan: z.enum(PLAN_NAMES),
    effective_plan: z.enum(PLAN_NAMES).openapi({ description: 'The plan in force now: a running trial, else `plan`' }),
    trial: z
      .object({ plan: z.enum(PLAN_NAMES), ends_at: z.string().nullable(), active: z.boolean() })
      .nullable(),
    monthly_quota: z.number().int(),
    batch_enabled: z.boolean(),
    created_at: z.string().openapi({ format: 'date-time' }),
  })
  .passthrough()
  .openapi('Account');

export const Usage = z
  .object({
    period: z.string().openapi({ description: 'Calendar month, UTC (YYYY-MM)', example: '2026-11' }),
    period_start: z.string().openapi({ format: 'date-time' }),
    resets_at: z.string().openapi({ format: 'date-time' }),
    plan: z.enum(PLAN_NAMES),
    quota: z.number().int(),
    used: z.number().int(),
    remaining: z.number().int(),
    by_endpoint: z.record(z.string(), z.number().int()).openapi({ description: 'Metered calls this month by operationId' }),
    by_day: z
      .record(z.string(), z.number().int())
      .openapi({ description: 'Metered calls this month by day (UTC, YYYY-MM-DD), in date order; days without calls are left out', example: { '2026-11-24': 120, '2026-11-25': 37 } }),
  })
  .passthrough()
  .openapi('AccountUsage');

export const ApiKey = z
  .object({
    id: z.string().openapi({ format: 'uuid' }),
    label: z.string().nullable(),
    key_hash: z.string().openapi({ description: 'SHA-256 of the key (`sha256:<hex>`); the raw key is never stored' }),
    prefix: z.string(),
    last_four: z.string(),
    created_at: z.string().openapi({ format: 'date-time' }),
    last_used_at: z.string().nullable().openapi({ format: 'date-time', description: 'Updated within a second of use' }),
  })
  .passthrough()
  .openapi('ApiKey');

export const CreatedApiKey = ApiKey.extend({
  key: z.string().openapi({ description: 'The raw key: shown only in this response. Send it as `Authorization: Bearer <key>`.' }),
}).openapi('CreatedApiKey');

export const CreateApiKeyRequest = z
  .object({
    label: z
      .string()
      .max(100, 'must be at most 100 characters')
      .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'must not contain control characters')
      .openapi({ pattern: '^[^\\u0000-\\u001f\\u007f]*$', description: 'A name for the key: at most 100 characters, no control characters' })
      .nullable()
      .optional(),
  })
  .strict()
  .openapi('CreateApiKeyRequest', { example: { label: 'nightly compliance job' } });

export const DeletedApiKey = z
  .object({ id: z.string(), revoked: z.literal(true), revoked_at: z.string().nullable() })
  .passthrough()
  .openapi('DeletedApiKey');

export const KeyIdPath = z.object({ key_id: uuidParam('API key id').openapi({ example: DEMO_KEY_ID }) });
