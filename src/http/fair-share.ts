import type { RequestHandler } from 'express';
import type { Caller } from './auth.js';
import { setLimitHeaders } from './rate-limit-headers.js';

/** Counts a call against its caller's request rate: the RateLimit headers to send, or a 429 thrown. */
export type RateGate = (caller: Caller) => Promise<Record<string, string>>;

/**
 * Each authenticated call is counted against its account's request rate before anything else is
 * done for it: a call over the rate is refused (429) and never reaches the monthly meter.
 */
export function fairShare(take: RateGate): RequestHandler {
  return async (_req, res, next) => {
    const caller = res.locals.caller;
    if (caller) setLimitHeaders(res, await take(caller));
    next();
  };
}
