import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { QuotaExceededError } from '../errors.js';
import type { Authenticator, Caller } from './auth.js';
import { setLimitHeaders } from './rate-limit-headers.js';
import { requestId } from './request-context.js';

/** Counts a call against its caller's request rate: the RateLimit headers to send, or a QuotaExceededError (limit "rate") thrown. */
export type RateGate = (caller: Caller) => Promise<Record<string, string>>;

/**
 * The request rate's guard, before admission. A caller whose key checks out is counted against
 * its account's rate; one over it is answered 429 at once, as a shed request is
 * (no log line, security headers, route or body; the log gets one line a second with the counts
 * by key), so that one account's flood costs the others little: a refusal costs a fraction
 * of a served call, and takes none of the turns admission gives the others' calls. A call let in carries its caller on (bearerAuth does not look it up again) and
 * its RateLimit headers; one whose key does not check out goes on, to be answered 401 or 503
 * with its log line.
 */
export function fairShare(authenticator: Authenticator, take: RateGate, logger: Pick<Logger, 'warn'>, isPublic: (path: string) => boolean): RequestHandler {
  let refused = new Map<string, number>();
  let reportTimer: NodeJS.Timeout | undefined;
  const report = (keyId: string) => {
    refused.set(keyId, (refused.get(keyId) ?? 0) + 1);
    reportTimer ??= setTimeout(() => {
      logger.warn({ refused_by_key: Object.fromEntries(refused) }, 'calls refused by their request rate (429)');
      refused = new Map();
      reportTimer = undefined;
    }, 1000).unref();
  };
  return async (req, res, next) => {
    if (isPublic(req.path)) return next();
    let caller: Caller;
    try {
      caller = await authenticator.authenticate(req.get('authorization'));
    } catch {
      return next();
    }
    res.locals.caller = caller;
    let headers: Record<string, string>;
    try {
      headers = await take(caller);
    } catch (err) {
      if (!(err instanceof QuotaExceededError)) return next(err);
      report(caller.keyId);
      const body = JSON.stringify({ detail: err.message, limit: err.limit });
      requestId(req, res);
      res.writeHead(429, { ...err.headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)) }).end(body);
      return;
    }
    setLimitHeaders(res, headers);
    next();
  };
}
