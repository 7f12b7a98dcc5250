import { isRealDate } from '../domain/dates.js';
import { MAX_SEARCH_TERMS, canonicalLicenseNumber, searchTerms } from '../domain/identity.js';
import { z } from './zod.js';

export const ValidationErrorItem = z
  .object({
    loc: z.array(z.union([z.string(), z.number().int()])),
    msg: z.string(),
    type: z.string(),
    input: z.unknown().optional(),
    ctx: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('ValidationErrorItem');

export const ValidationErrorBody = z
  .object({ detail: z.array(ValidationErrorItem).optional() })
  .openapi('HTTPValidationError', { description: 'Invalid query, path or body (HTTP 422).' });

export const ErrorBody = z
  .object({ detail: z.string() })
  .openapi('ErrorResponse', { description: 'Error with a human-readable detail.' });

export const PaginationMeta = z
  .object({ total: z.number().int(), page: z.number().int(), per_page: z.number().int() })
  .openapi('PaginationMeta');

/** Two letters, any case; answered in upper case. Unknown codes are misses, not errors. */
export const StateCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'must be a two-letter state code')
  .transform((s) => s.toUpperCase())
  .openapi({ description: 'Two-letter state code, case-insensitive', example: 'TX', type: 'string', pattern: '^[A-Za-z]{2}$' });

export const LicenseNumberParam = z
  .string()
  .max(128, 'must be at most 128 characters')
  .refine((v) => canonicalLicenseNumber(v).length > 0, 'must not be empty')
  .openapi({
    description: 'Licence number as published; case and spacing are ignored (`763827-sa` finds `763827-SA`)',
    example: '763827-SA',
    type: 'string',
  });

export const IsoDate = z
  .string()
  .refine(isRealDate, 'must be a date in the form YYYY-MM-DD that exists')
  .openapi({ type: 'string', format: 'date', example: '2024-06-30' });

/** Query booleans take only `true` or `false`. */
export const QueryBoolean = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .transform((v) => v === 'true')
  .openapi({ type: 'boolean' });

const intParam = (min: number, max: number | undefined, fallback: number, description: string) => {
  let inner = z.number().int('must be an integer').min(min, `must be at least ${min}`);
  if (max !== undefined) inner = inner.max(max, `must be at most ${max}`);
  return z
    .string()
    .regex(/^-?\d+$/, 'must be an integer')
    .transform(Number)
    .pipe(inner)
    .optional()
    .transform((v) => v ?? fallback)
    .openapi({ type: 'integer', minimum: min, ...(max !== undefined ? { maximum: max } : {}), default: fallback, description });
};

export const PageParam = intParam(1, undefined, 1, 'Page number, from 1');
export const PerPageParam = intParam(1, 100, 25, 'Items per page, 1 to 100');
export const intQueryParam = intParam;

/** A UUID in any case, answered in lower case. */
export const uuidParam = (description: string) =>
  z
    .string()
    .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'must be a UUID')
    .transform((s) => s.toLowerCase())
    .openapi({ type: 'string', format: 'uuid', description });

export const CredentialIdParam = uuidParam('Licence credential id (the Licensee `id`)');

/** A free-text search filter: at most 200 characters and MAX_SEARCH_TERMS distinct terms. */
export const searchText = (description: string) =>
  z
    .string()
    .max(200, 'must be at most 200 characters')
    .refine((v) => searchTerms(v).length <= MAX_SEARCH_TERMS, `must hold at most ${MAX_SEARCH_TERMS} terms`)
    .optional()
    .openapi({ description });
