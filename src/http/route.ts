import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { Request, RequestHandler, Response, Router } from 'express';
import { z } from './zod.js';
import { ValidationError, type ValidationIssue } from '../errors.js';
import { ErrorBody, RateLimitedBody, ValidationErrorBody } from './common.schemas.js';
import type { MethodTable } from './methods.js';
import { toValidationIssues } from './validation.js';
import type { LookupTraffic } from './traffic.js';

type AnyObject = z.ZodObject<z.ZodRawShape>;

declare module 'express-serve-static-core' {
  interface Locals {
    /** The handler's answer as the JSON bytes to send (res.json would serialize it again). */
    serializedBody?: Buffer;
  }
}

/** Where routes go, and the guard that meters lookup operations (absent: not metered). */
export interface RouteContext {
  router: Router;
  registry: OpenAPIRegistry;
  methods: MethodTable;
  meter?: (def: { operationId: string; paidOnly: boolean }) => RequestHandler;
  /** Hears of every lookup as it begins. */
  traffic?: LookupTraffic;
}

export interface RouteDef<Q extends AnyObject, P extends AnyObject, B extends z.ZodType, R extends z.ZodType> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express path, `:param` style. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** `successor`: the URL of the operation that replaces this one, for the request at hand. */
  deprecated?: { successor: (req: Request) => string };
  /** Served without an API key. */
  public?: boolean;
  /** A lookup: counts against the monthly quota; `paid` ones need a paid plan. */
  metered?: 'lookup' | 'paid';
  query?: Q;
  params?: P;
  body?: B;
  /** The body may be left out entirely (treated as `{}`). */
  bodyOptional?: boolean;
  /** Also takes the body as this type: the handler gets its bytes (a Buffer), unchecked (it checks it). */
  accepts?: 'text/csv';
  /** Request headers the operation reads, by name: their descriptions. */
  requestHeaders?: Record<string, string>;
  /** The success status, when not 200 (201: created, 202: accepted, to be done later). */
  status?: 201 | 202;
  response: R;
  responseDescription?: string;
  /** The 200 answer is this type, written by the handler itself (a stream); `response` describes it. */
  produces?: 'text/csv' | 'application/pdf';
  /** Headers the 200 answer carries, by name: their descriptions. */
  responseHeaders?: Record<string, string>;
  /** Error statuses this operation can answer besides 422 and 500. */
  errors?: number[];
  /** Error bodies other than `{"detail": "..."}`, by status. */
  errorSchemas?: Record<number, z.ZodType>;
  handler: (
    input: { query: z.output<Q>; params: z.output<P>; body: z.output<B> },
    req: Request,
    res: Response,
    // A handler that `produces` another type writes the answer itself and returns nothing.
  ) => Promise<z.input<R>> | z.input<R> | Promise<void>;
}

const ERROR_TEXT: Record<number, string> = {
  401: 'Missing, malformed, unknown or revoked API key (WWW-Authenticate: Bearer)',
  402: 'The plan does not include this operation',
  404: 'Not found',
  409: 'Conflicts with the current state',
  410: 'Gone: the cursor is older than the events kept',
  413: 'Body larger than the limit',
  429: 'The plan\'s request rate exceeded, or (metered calls) its monthly quota spent: `limit` names which, Retry-After when to retry',
  503: 'A store the service depends on is unavailable',
};

// Deprecated since 2026-01-01 (RFC 9745 structured date: @ and seconds since the epoch).
const DEPRECATION_DATE = '@1767225600';

/** Content types a body is read as JSON from (express.json is set up with the same list). */
export const JSON_TYPES = ['application/json', 'application/*+json'];

function parseOrCollect<S extends z.ZodType>(schema: S | undefined, where: 'query' | 'path' | 'body', input: unknown, issues: ValidationIssue[]) {
  if (!schema) return undefined;
  const parsed = schema.safeParse(where === 'body' && input === undefined ? undefined : input);
  if (parsed.success) return parsed.data;
  issues.push(...toValidationIssues(where, parsed.error, input));
  return undefined;
}

/** Mounts one operation on the router and describes it in the OpenAPI registry, from the same schemas. */
export function route<Q extends AnyObject, P extends AnyObject, B extends z.ZodType, R extends z.ZodType>(
  ctx: RouteContext,
  def: RouteDef<Q, P, B, R>,
): void {
  const { router, registry } = ctx;
  const errorResponses: RouteConfig['responses'] = {
    422: { description: 'Invalid query, path or body', content: { 'application/json': { schema: ValidationErrorBody } } },
  };
  const statuses = new Set(def.errors ?? []);
  if (!def.public) statuses.add(401).add(429);
  if (def.metered === 'paid') statuses.add(402);
  // Everything but liveness reads a store that can be unavailable.
  if (def.path !== '/health') statuses.add(503);
  for (const status of [...statuses].sort()) {
    const schema = def.errorSchemas?.[status] ?? (status === 429 ? RateLimitedBody : ErrorBody);
    errorResponses[status] = { description: ERROR_TEXT[status] ?? 'Error', content: { 'application/json': { schema } } };
  }
  registry.registerPath({
    method: def.method,
    path: def.path.replace(/:(\w+)/g, '{$1}'),
    operationId: def.operationId,
    summary: def.summary,
    description: def.description,
    tags: def.tags,
    deprecated: def.deprecated ? true : undefined,
    security: def.public ? [] : [{ bearerAuth: [] }],
    request: {
      query: def.query,
      params: def.params,
      headers: def.requestHeaders
        ? z.object(Object.fromEntries(Object.entries(def.requestHeaders).map(([name, description]) => [name, z.string().optional().openapi({ description })])))
        : undefined,
      body: def.body
        ? {
            required: !def.bodyOptional,
            content: {
              'application/json': { schema: def.body },
              ...(def.accepts ? { [def.accepts]: { schema: z.string().openapi({ description: 'The same, as a file of this type' }) } } : {}),
            },
          }
        : undefined,
    },
    responses: {
      [def.status ?? 200]: {
        description: def.responseDescription ?? 'OK',
        content: { [def.produces ?? 'application/json']: { schema: def.response } },
        headers: {
          ...Object.fromEntries(Object.entries(def.responseHeaders ?? {}).map(([name, description]) => [name, { description, schema: { type: 'string' } }])),
          ...(def.deprecated
            ? {
                Deprecation: { description: 'RFC 9745: deprecated since this date', schema: { type: 'string' } },
                Link: { description: 'The successor operation (rel="successor-version")', schema: { type: 'string' } },
              }
            : {}),
          ...(def.public
            ? {}
            : {
                'RateLimit-Policy': {
                  description: `draft-ietf-httpapi-ratelimit-headers-10: the request rate \`"rate";q=<burst>;w=<window seconds>\`${def.metered ? ', after the monthly quota `"monthly";q=<quota>;w=<window seconds>`' : ''}`,
                  schema: { type: 'string' },
                },
                RateLimit: {
                  description: `draft-ietf-httpapi-ratelimit-headers-10: \`"rate";r=<remaining>;t=<seconds to the window's end>\`${def.metered ? ', after `"monthly";r=<remaining>;t=<seconds to reset>`' : ''}`,
                  schema: { type: 'string' },
                },
              }),
        },
      },
      ...errorResponses,
    },
  });

  const handler: RequestHandler = async (req, res) => {
    const issues: ValidationIssue[] = [];
    const params = parseOrCollect(def.params, 'path', req.params, issues);
    const query = parseOrCollect(def.query, 'query', req.query, issues);
    let body: unknown;
    // A body of another type is refused rather than ignored; an empty one counts as none.
    const sent = req.get('transfer-encoding') !== undefined || Number(req.get('content-length') ?? 0) > 0;
    if (def.accepts && sent && req.is(def.accepts)) {
      body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    } else if (def.body && !sent && !def.bodyOptional) {
      issues.push({ loc: ['body'], msg: `the request has no body: send ${def.accepts ? `JSON (Content-Type: application/json) or ${def.accepts}` : 'JSON (Content-Type: application/json)'}`, type: 'missing' });
    } else if (def.body && sent && !req.is(JSON_TYPES)) {
      issues.push({
        loc: ['body'],
        msg: `the body must be JSON, sent with Content-Type: application/json${def.accepts ? ` (or ${def.accepts})` : ''}`,
        type: 'content_type_invalid',
        ctx: { expected: def.accepts ? `application/json, ${def.accepts}` : 'application/json', received: (req.get('content-type') ?? '').slice(0, 100) || null },
      });
    } else {
      body = parseOrCollect(def.body, 'body', req.body === undefined && def.bodyOptional ? {} : req.body, issues);
    }
    if (def.deprecated) {
      res.setHeader('Deprecation', DEPRECATION_DATE);
      res.setHeader('Link', `<${def.deprecated.successor(req)}>; rel="successor-version"`);
    }
    if (issues.length) throw new ValidationError(issues);
    const out = await def.handler({ query, params, body } as never, req, res);
    if (def.produces) return;
    if (out === undefined) throw new Error(`${def.operationId} answered nothing`);
    // A handler may set another status (readiness answers 503 with the same body shape). One
    // that serialized its answer already (to record its hash) has it sent as it is.
    if (def.status) res.status(def.status);
    if (res.locals.serializedBody !== undefined) res.type('json').send(res.locals.serializedBody);
    else res.json(out);
  };
  const guard: RequestHandler[] = def.metered && ctx.meter ? [ctx.meter({ operationId: def.operationId, paidOnly: def.metered === 'paid' })] : [];
  const traffic = ctx.traffic;
  if (def.metered && traffic) {
    guard.unshift((_req, _res, next) => {
      traffic.seen();
      next();
    });
  }
  router[def.method](def.path, ...guard, handler);
  ctx.methods.add(def.path, def.method);
}
