import { timingSafeEqual } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import express, { type RequestHandler } from 'express';

declare module 'express-serve-static-core' {
  interface Locals {
    /** The path template the request matched (the method table's), for metrics: never the raw path. */
    route?: string;
  }
}

/** Hears requests as they begin and end (metrics). */
export interface RequestObserver {
  begin(): void;
  /** `route`: the template matched, or `unmatched`; `status` 499 when the client left before the answer. */
  end(route: string, method: string, status: number, seconds: number): void;
}

declare module 'express-serve-static-core' {
  interface Locals {
    /** performance.now() when the request reached the app (`arrival`). */
    arrivedAt?: number;
  }
}

/** The app's first middleware: a request's duration counts from here, its waits for a turn and for its rate included. */
export const arrival: RequestHandler = (_req, res, next) => {
  res.locals.arrivedAt = performance.now();
  next();
};

export function observeRequests(observer: RequestObserver): RequestHandler {
  return (req, res, next) => {
    const started = res.locals.arrivedAt ?? performance.now();
    observer.begin();
    res.once('close', () => observer.end(res.locals.route ?? 'unmatched', req.method, res.writableFinished ? res.statusCode : 499, (performance.now() - started) / 1000));
    next();
  };
}

/** The Prometheus exposition of the process's metrics. */
export type Exposition = () => Promise<{ contentType: string; body: string }>;

/**
 * GET /metrics. With `token`, only to a caller that sends it as a bearer token (the API port
 * is public); without, to anyone who reaches it (a port of its own, kept off the public network).
 */
export function metricsHandler(exposition: Exposition, token?: string): RequestHandler {
  const expected = token === undefined ? undefined : Buffer.from(`Bearer ${token}`);
  return async (req, res) => {
    const sent = Buffer.from(req.get('authorization') ?? '');
    if (expected && (sent.length !== expected.length || !timingSafeEqual(sent, expected))) {
      res.set('WWW-Authenticate', 'Bearer realm="metrics"').status(401).json({ detail: 'the metrics need the operator\'s bearer token (METRICS_TOKEN)' });
      return;
    }
    const { contentType, body } = await exposition();
    res.type(contentType).send(body);
  };
}

/** The metrics port's app: GET /metrics and nothing else. */
export function metricsApp(exposition: Exposition) {
  const app = express();
  app.disable('x-powered-by');
  app.get('/metrics', metricsHandler(exposition));
  app.use((_req, res) => {
    res.status(404).json({ detail: 'this port serves GET /metrics only' });
  });
  return app;
}
