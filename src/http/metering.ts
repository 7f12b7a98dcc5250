import type { RequestHandler } from 'express';
import type { Caller } from './auth.js';
import { errorHandler } from './errors.middleware.js';
import { setLimitHeaders } from './rate-limit-headers.js';

declare module 'express-serve-static-core' {
  interface Locals {
    /** A metered call's admission: settles before its answer is sent (a refusal answers instead). */
    admission?: Promise<unknown>;
  }
}

/** A metered call let in, to be settled once it has answered. */
export interface Admitted {
  /** The quota state its answer carries (RateLimit headers). */
  headers: Record<string, string>;
}

/** Counts metered calls against their caller's quota; refuses one (402, 429) by throwing. */
export interface CallMeter<T extends Admitted = Admitted> {
  admit(caller: Caller, operationId: string, options: { paidOnly?: boolean }): Promise<T>;
  /** Counts the call or gives its unit back, by the status it answered. */
  settle(admitted: T, status: number): Promise<void>;
}

/**
 * Route guard for lookups. The quota is taken (atomically, in the store for free plans) while
 * the lookup runs, and nothing is sent before the call is admitted: a refused call answers 402
 * or 429 instead of its result. Settled on finish: counted when 2xx, 304 or 404, else given back.
 */
export function meterGuard<T extends Admitted>(meter: CallMeter<T>, log: (err: unknown) => void) {
  return ({ operationId, paidOnly }: { operationId: string; paidOnly: boolean }): RequestHandler =>
    async (req, res, next) => {
      const caller = res.locals.caller;
      if (!caller) return next();
      const admission = meter.admit(caller, operationId, { paidOnly });
      res.locals.admission = admission;
      admission.then(
        (ticket) => {
          res.on('finish', () => meter.settle(ticket, res.statusCode).catch(log));
          res.on('close', () => {
            if (!res.writableFinished) meter.settle(ticket, 499).catch(log);
          });
        },
        () => undefined,
      );
      // A paid-only operation is not started for a plan that lacks it.
      if (paidOnly) await admission;
      // Every answer goes through send (res.json too): held until the call is admitted.
      const send = res.send.bind(res);
      res.send = (body?: unknown) => {
        admission.then(
          (ticket) => {
            setLimitHeaders(res, ticket.headers);
            send(body);
          },
          (err) => {
            res.send = send;
            errorHandler(err, req, res, next);
          },
        );
        return res;
      };
      next();
    };
}
