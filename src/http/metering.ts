import type { RequestHandler } from 'express';
import { type Meter, type Ticket, rateLimitHeaders } from '../modules/accounts/metering.js';
import { errorHandler } from './errors.middleware.js';

/**
 * Route guard for lookups. The quota is taken (atomically, in the store for free plans) while
 * the lookup runs, and nothing is sent before the call is admitted: a refused call answers 402
 * or 429 instead of its result. Settled on finish: counted when 2xx, 304 or 404, else given back.
 */
export function meterGuard(meter: Meter, log: (err: unknown) => void) {
  return ({ operationId, paidOnly }: { operationId: string; paidOnly: boolean }): RequestHandler =>
    async (req, res, next) => {
      const caller = res.locals.caller;
      if (!caller) return next();
      const admission = meter.admit(caller.account, caller.keyId, operationId, { paidOnly });
      admission.then(
        (ticket: Ticket) => {
          res.on('finish', () => meter.settle(ticket, res.statusCode).catch(log));
          res.on('close', () => {
            if (!res.writableFinished) meter.settle(ticket, 499).catch(log);
          });
        },
        () => undefined,
      );
      // A paid-only operation is not started for a plan that lacks it.
      if (paidOnly) await admission;
      const send = res.json.bind(res);
      res.json = (body: unknown) => {
        admission.then(
          (ticket) => {
            res.set(rateLimitHeaders(ticket));
            send(body);
          },
          (err) => {
            res.json = send;
            errorHandler(err, req, res, next);
          },
        );
        return res;
      };
      next();
    };
}
