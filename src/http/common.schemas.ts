import { DATE_RANGE, dayProblem } from '../domain/dates.js';
import { JURISDICTION_NAMES, isJurisdictionCode } from '../domain/jurisdictions.js';
import { MAX_SEARCH_TERMS, canonicalLicenseNumber, searchTerms } from '../domain/identity.js';
import { DEMO_CREDENTIAL_ID, DEMO_DATE, DEMO_LICENCE } from './examples.js';
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

export const RateLimitedBody = z
  .object({
    detail: z.string(),
    limit: z.enum(['rate', 'monthly']).openapi({ description: '`rate`: the plan\'s request rate (retry in seconds); `monthly`: the monthly quota (retry at its reset)' }),
  })
  .openapi('RateLimitedResponse', { description: 'A call refused by a limit (HTTP 429), naming which.' });

export const PaginationMeta = z
  .object({ total: z.number().int(), page: z.number().int(), per_page: z.number().int() })
  .openapi('PaginationMeta');

const STATE_CODE = /^[A-Za-z]{2}$/;
const JURISDICTION_CODES = Object.keys(JURISDICTION_NAMES).join(', ');
const STATE_DESCRIPTION = `Two-letter code of a U.S. jurisdiction: ${JURISDICTION_CODES}. Lower case is accepted too (tx is TX); answers give it in upper case`;
/** The document lists the codes (upper case, as answered): a client built from it sends only codes the server takes. */
const STATE_ENUM = Object.keys(JURISDICTION_NAMES);

/**
 * The one rule for a state code everywhere: a U.S. jurisdiction's two letters, any case. Another
 * code is a 422 listing the codes; a jurisdiction with no data is an ordinary answer (a miss).
 */
export const StateCodeAsSent = z
  .string()
  .regex(STATE_CODE, 'must be a two-letter state code')
  .superRefine((s, ctx) => {
    if (stateCodeProblem(s) !== 'is not the code of a U.S. jurisdiction') return;
    ctx.addIssue({
      code: 'custom',
      message: 'must be the code of a U.S. jurisdiction: the codes are listed in ctx.expected and in the description of each state parameter in /openapi.json',
      params: { type: 'enum', expected: JURISDICTION_CODES },
    });
  })
  .openapi({ description: STATE_DESCRIPTION, example: 'TX', type: 'string', enum: STATE_ENUM });

/** What is wrong with a state code a form or file gave, in words that follow it; undefined when it is fine. */
export function stateCodeProblem(code: string): string | undefined {
  if (!STATE_CODE.test(code)) return 'is not a two-letter state code';
  return isJurisdictionCode(code.toUpperCase()) ? undefined : 'is not the code of a U.S. jurisdiction';
}

/** A state code answered in upper case. */
export const StateCode = StateCodeAsSent.transform((s) => s.toUpperCase()).openapi({
  description: STATE_DESCRIPTION,
  example: 'TX',
  type: 'string',
  enum: STATE_ENUM,
});

// Control characters (NUL among them) and unpaired surrogates: text no store can keep as sent.
const UNKEEPABLE = /\p{Cc}|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;
/** Text a caller sends that is stored as sent (a licence number, a name): no control characters. */
export const keepableText = (v: string) => !UNKEEPABLE.test(v);
export const KEEPABLE_MESSAGE = 'must not hold control characters or broken Unicode';

/** The one rule for a licence number everywhere: at most 128 characters, not blank, keepable. */
export const LicenseNumberParam = z
  .string()
  .max(128, 'must be at most 128 characters')
  .refine((v) => canonicalLicenseNumber(v).length > 0, 'must not be empty')
  .refine(keepableText, KEEPABLE_MESSAGE)
  .openapi({
    description: 'Licence number as published; case and spacing are ignored (`763827-sa` finds `763827-SA`)',
    example: DEMO_LICENCE,
    type: 'string',
    minLength: 1,
    maxLength: 128,
  });

export const IsoDate = z
  .string()
  .superRefine((v, ctx) => {
    const problem = dayProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .openapi({ type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', example: DEMO_DATE, description: `A day from ${DATE_RANGE.first} to ${DATE_RANGE.last}` });

/** Query booleans take only `true` or `false`. */
export const QueryBoolean = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .transform((v) => v === 'true')
  .openapi({ type: 'boolean' });

const intParam = (min: number, max: number | undefined, fallback: number, description: string) => {
  // Past 2^53 a number no longer holds the integer sent, so that is the bound when none is given.
  const upper = max ?? Number.MAX_SAFE_INTEGER;
  const inner = z.number().min(min, `must be at least ${min}`).max(upper, `must be at most ${upper}`);
  return z
    .string()
    .transform((s, ctx) => {
      if (/^-?\d+$/.test(s)) return Number(s);
      ctx.addIssue({ code: 'custom', message: 'must be an integer', params: { type: 'int_parsing' } });
      return z.NEVER;
    })
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

export const CredentialIdParam = uuidParam('Licence credential id (the Licensee `id`)').openapi({ example: DEMO_CREDENTIAL_ID });

/**
 * A registered schema or null. zod-to-openapi writes `.nullable()` of a reference as an allOf that
 * no null satisfies; a union is written `anyOf: [{$ref}, {type: "null"}]`.
 */
export const nullable = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);

/** A filter value from a fixed list, taken in any letter case; the document shows the list itself. */
export const anyCase = <T extends z.ZodType>(values: T) => z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), values);

/** A free-text search filter: at most 200 characters and MAX_SEARCH_TERMS distinct terms. */
export const searchText = (description: string) =>
  z
    .string()
    .max(200, 'must be at most 200 characters')
    .refine((v) => searchTerms(v).length <= MAX_SEARCH_TERMS, `must hold at most ${MAX_SEARCH_TERMS} terms`)
    .optional()
    .openapi({ description });
