import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echoes a sane client X-Request-ID, else mints one; every response carries it. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const sent = req.headers['x-request-id'];
  const id = typeof sent === 'string' && SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
  res.setHeader('X-Request-ID', id);
  return id;
}

export function requestLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: requestId,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    serializers: {
      req: (req) => ({ id: req.id, method: req.method, path: req.url?.split('?')[0], user_agent: req.headers['user-agent'] }),
      res: (res) => ({ status: res.statusCode }),
    },
  });
}
