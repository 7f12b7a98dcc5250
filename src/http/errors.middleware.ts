import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { setLimitHeaders } from './rate-limit-headers.js';
import { AppError, GraphBusyError, GraphError, QuotaExceededError, StoreError, UnauthorizedError, ValidationError, type ValidationIssue } from '../errors.js';

const REALM = 'licensee-verification-service';

/**
 * The error body: `{detail}` as JSON, or an HTML page where the router set `renderError` (the
 * dashboard), with the same status and headers.
 */
function reply(res: Response, status: number, detail: string | ValidationIssue[], extra?: Record<string, string>) {
  const render = res.locals.renderError as ((status: number, message: string) => string) | undefined;
  if (!render) {
    res.status(status).json({ detail, ...extra });
    return;
  }
  const message = typeof detail === 'string' ? detail : detail.map((i) => i.msg).join('; ');
  res.status(status).type('html').send(render(status, message));
}

export const notFound: RequestHandler = (req, res) => {
  reply(res, 404, `Not Found: ${req.method} ${req.path}`);
};

/** The one place errors become HTTP: FastAPI-style bodies, never a stack trace. */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  if (res.headersSent) {
    req.log?.error({ err }, 'error after headers were sent');
    res.end();
    return;
  }
  if (err instanceof ValidationError) {
    reply(res, 422, err.issues);
    return;
  }
  if (err instanceof UnauthorizedError && !res.locals.renderError) {
    // RFC 6750: no error code when no credential was sent.
    const params = [`realm="${REALM}"`];
    if (err.bearerError) params.push(`error="${err.bearerError}"`, `error_description="${err.message.replace(/"/g, "'")}"`);
    res.set('WWW-Authenticate', `Bearer ${params.join(', ')}`);
  }
  if (err instanceof AppError) {
    setLimitHeaders(res, err.headers);
    reply(res, err.status, err.message, err instanceof QuotaExceededError ? { limit: err.limit } : undefined);
    return;
  }
  // body-parser errors carry a `type` and a status.
  const type = (err as { type?: string }).type;
  if (type === 'entity.parse.failed') {
    reply(res, 422, [{ loc: ['body'], msg: `JSON decode error: ${(err as Error).message}`, type: 'json_invalid' }]);
    return;
  }
  if (type === 'entity.too.large') {
    reply(res, 413, `request body is larger than the limit of ${(err as { limit?: number }).limit} bytes`);
    return;
  }
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    reply(res, 415, (err as Error).message);
    return;
  }
  // Express cannot percent-decode a path parameter.
  if (err instanceof URIError || /^Failed to decode param/.test((err as Error).message ?? '')) {
    reply(res, 422, [{ loc: ['path'], msg: (err as Error).message, type: 'url_decoding' }]);
    return;
  }
  const status = (err as { status?: number }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    reply(res, status, (err as Error).message);
    return;
  }
  // Shed under overload: one line per request would add to the load, and pino-http logs the 503.
  if (err instanceof GraphBusyError) {
    res.set('Retry-After', '1');
    reply(res, 503, 'the service is at capacity: retry in a second');
    return;
  }
  req.log?.error({ err }, 'request failed');
  if (err instanceof GraphError && err.transient) {
    res.set('Retry-After', '1');
    reply(res, 503, 'the graph store could not answer; retry shortly');
    return;
  }
  if (err instanceof StoreError) {
    reply(res, 503, 'the accounts store could not answer; retry shortly');
    return;
  }
  reply(res, 500, 'internal error');
};
