import { performance } from 'node:perf_hooks';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { requestId } from './request-context.js';

declare module 'express-serve-static-core' {
  interface Locals {
    /** Gives the request's turn to the next while it waits only for a commit (at most `queue` at once); false when it keeps it. */
    yieldTurn?: () => boolean;
  }
}

export interface AdmissionOptions {
  /** Requests served at once. */
  concurrency: number;
  /** Requests that may wait for a turn; past it, more are shed at once. */
  queue: number;
  /** How long a request may wait for its turn before it is shed, while the queue drains. */
  waitMs: number;
  /** Hears each request shed, and why (metrics). */
  shed?: (reason: 'queue' | 'waited') => void;
}

// CoDel (Nichols and Jacobson; "Fail at Scale", ACM Queue 2015): a queue that has not been empty
// for this long is standing, not absorbing a burst: new arrivals are shed instead of joining it.
const STANDING_AFTER_MS = 100;

const BUSY = JSON.stringify({ detail: 'the service is at capacity: retry in a second' });
const BUSY_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(BUSY)), 'Retry-After': '1' };

/**
 * Admission control, the app's first step after the request rate's guard (fair-share.ts): at most `concurrency` requests are served at once and
 * at most `queue` wait, each for at most `waitMs`, and none joins a standing queue; the rest are
 * shed at once with 503 and Retry-After. A shed request costs a few microseconds (no log line,
 * security headers, key or body; the log gets one line a second with the counts), so under overload the
 * server keeps reading its sockets and answers those it serves quickly. That matters twice over:
 * Node (libuv 1.45+) accepts one new connection per event-loop turn, so a client that opens
 * connections because its requests wait would queue them in the kernel for seconds.
 */
export function admission({ concurrency, queue, waitMs, shed: heard }: AdmissionOptions, logger: Logger): RequestHandler {
  let running = 0;
  /** Requests that gave their turn up and have not finished. */
  let yielded = 0;
  const waiting: (() => void)[] = [];
  let emptyAt = performance.now();
  const shedCounts = { queue: 0, waited: 0 };
  let reportTimer: NodeJS.Timeout | undefined;
  const shed = (req: Request, res: Response, why: keyof typeof shedCounts) => {
    shedCounts[why] += 1;
    heard?.(why);
    reportTimer ??= setTimeout(() => {
      logger.warn({ shed: { ...shedCounts }, running, waiting: waiting.length }, 'requests shed: the service is at capacity');
      shedCounts.queue = shedCounts.waited = 0;
      reportTimer = undefined;
    }, 1000).unref();
    requestId(req, res);
    res.writeHead(503, BUSY_HEADERS).end(BUSY);
  };
  // A finished request hands its turn to the next waiting one, if any.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
    if (!waiting.length) emptyAt = performance.now();
  };
  return (req, res, next) => {
    const serve = () => {
      let ended = false;
      let gaveUp = false;
      const end = () => {
        if (gaveUp) yielded -= 1;
        gaveUp = false;
        if (ended) return;
        ended = true;
        release();
      };
      // An answer that only waits for its record's commit uses neither the engines nor the CPU; its
      // turn serves another meanwhile. Bounded like the queue: past it, waiting for commits holds turns.
      res.locals.yieldTurn = () => {
        if (ended || yielded >= queue) return false;
        yielded += 1;
        gaveUp = true;
        ended = true;
        release();
        return true;
      };
      res.on('finish', end);
      res.on('close', end);
      next();
    };
    if (running < concurrency) {
      running += 1;
      return serve();
    }
    if (waiting.length >= queue || (waiting.length && performance.now() - emptyAt > STANDING_AFTER_MS)) return shed(req, res, 'queue');
    const leave = () => {
      const at = waiting.indexOf(turn);
      if (at >= 0) waiting.splice(at, 1);
      if (!waiting.length) emptyAt = performance.now();
      clearTimeout(timer);
    };
    const turn = () => {
      leave();
      if (res.writableEnded || res.destroyed) return release();
      serve();
    };
    if (!waiting.length) emptyAt = performance.now();
    const timer = setTimeout(() => {
      leave();
      shed(req, res, 'waited');
    }, waitMs);
    // A client that gives up while it waits leaves the queue.
    res.on('close', leave);
    waiting.push(turn);
  };
}
