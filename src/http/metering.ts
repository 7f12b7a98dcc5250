import type { RequestHandler } from 'express';
import { type Meter, rateLimitHeaders } from '../modules/accounts/metering.js';

/** Route guard for lookups: admits the call against the plan and quota, then settles it on finish. */
export function meterGuard(meter: Meter, log: (err: unknown) => void) {
  return ({ operationId, paidOnly }: { operationId: string; paidOnly: boolean }): RequestHandler =>
    async (_req, res, next) => {
      const caller = res.locals.caller;
      if (!caller) return next();
      const ticket = await meter.admit(caller.account, caller.keyId, operationId, { paidOnly });
      res.set(rateLimitHeaders(ticket));
      res.on('finish', () => meter.settle(ticket, res.statusCode).catch(log));
      res.on('close', () => {
        if (!res.writableFinished) meter.settle(ticket, 499).catch(log);
      });
      next();
    };
}
