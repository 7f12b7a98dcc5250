import type { RequestHandler } from 'express';
import { ServiceBusyError } from '../errors.js';

export interface AdmissionOptions {
  /** Requests served at once. */
  concurrency: number;
  /** Requests that may wait for a turn; past it, more are shed at once. */
  queue: number;
  /** How long a request may wait for its turn before it is shed. */
  waitMs: number;
}

/**
 * Admission control: at most `concurrency` requests are served at once and at most `queue` wait,
 * each for at most `waitMs`; the rest are shed at once with 503 and Retry-After. Under overload
 * the requests served stay fast instead of queueing without end inside the graph engine, and the
 * service answers normally as soon as the load drops.
 */
export function admission({ concurrency, queue, waitMs }: AdmissionOptions): RequestHandler {
  let running = 0;
  const waiting: (() => void)[] = [];
  // A finished request hands its turn to the next waiting one, if any.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  return (_req, res, next) => {
    const serve = () => {
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        release();
      };
      res.on('finish', end);
      res.on('close', end);
      next();
    };
    if (running < concurrency) {
      running += 1;
      return serve();
    }
    if (waiting.length >= queue) return next(new ServiceBusyError(`${running} requests are being served and ${waiting.length} wait`));
    const leave = () => {
      const at = waiting.indexOf(turn);
      if (at >= 0) waiting.splice(at, 1);
      clearTimeout(timer);
    };
    const turn = () => {
      leave();
      if (res.writableEnded || res.destroyed) return release();
      serve();
    };
    const timer = setTimeout(() => {
      leave();
      next(new ServiceBusyError(`no turn within ${waitMs} ms`));
    }, waitMs);
    // A client that gives up while it waits leaves the queue.
    res.on('close', leave);
    waiting.push(turn);
  };
}
