import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, GraphError, StoreError, UnauthorizedError, ValidationError } from '../errors.js';

const REALM = 'licensee-verification-service';

export const notFound: RequestHandler = (req, res) => {
  res.status(404).json({ detail: `Not Found: ${req.method} ${req.path}` });
};

/** The one place errors become HTTP: FastAPI-style bodies, never a stack trace. */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  if (res.headersSent) {
    req.log?.error({ err }, 'error after headers were sent');
    res.end();
    return;
  }
  if (err instanceof ValidationError) {
    res.status(422).json({ detail: err.issues });
    return;
  }
  if (err instanceof UnauthorizedError) {
    // RFC 6750: no error code when no credential was sent.
    const params = [`realm="${REALM}"`];
    if (err.bearerError) params.push(`error="${err.bearerError}"`, `error_description="${err.message.replace(/"/g, "'")}"`);
    res.set('WWW-Authenticate', `Bearer ${params.join(', ')}`);
  }
  if (err instanceof AppError) {
    res.set(err.headers);
    res.status(err.status).json({ detail: err.message });
    return;
  }
  // body-parser errors carry a `type` and a status.
  const type = (err as { type?: string }).type;
  if (type === 'entity.parse.failed') {
    res.status(422).json({
      detail: [{ loc: ['body'], msg: `JSON decode error: ${(err as Error).message}`, type: 'json_invalid' }],
    });
    return;
  }
  if (type === 'entity.too.large') {
    res.status(413).json({ detail: `request body is larger than the limit of ${(err as { limit?: number }).limit} bytes` });
    return;
  }
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    res.status(415).json({ detail: (err as Error).message });
    return;
  }
  // Express cannot percent-decode a path parameter.
  if (err instanceof URIError || /^Failed to decode param/.test((err as Error).message ?? '')) {
    res.status(422).json({ detail: [{ loc: ['path'], msg: (err as Error).message, type: 'url_decoding' }] });
    return;
  }
  const status = (err as { status?: number }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    res.status(status).json({ detail: (err as Error).message });
    return;
  }
  req.log?.error({ err }, 'request failed');
  if (err instanceof GraphError && err.transient) {
    res.status(503).json({ detail: 'the graph store could not answer; retry shortly' });
    return;
  }
  if (err instanceof StoreError) {
    res.status(503).json({ detail: 'the accounts store could not answer; retry shortly' });
    return;
  }
  res.status(500).json({ detail: 'internal error' });
};
