import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { admission } from '../../src/http/admission.js';
import { arrival, observeRequests } from '../../src/http/observe.js';

/** An app whose one route answers when the test lets it, behind admission. */
function heldApp(options: Parameters<typeof admission>[0]) {
  const held: (() => void)[] = [];
  const app = express();
  app.use(admission(options, pino({ level: 'silent' })));
  app.get('/work', (_req, res) => void held.push(() => res.json({ done: true })));
  const settled = async (n: number) => {
    while (held.length < n) await new Promise((r) => setTimeout(r, 5));
  };
  return { app, held, settled };
}

describe('admission under load', () => {
  it('when a queue has stood past 100 ms then new arrivals are shed at once, with a request id and Retry-After, while the queued one is still served', async () => {
    const { app, held, settled } = heldApp({ concurrency: 1, queue: 10, waitMs: 60_000 });
    const server = app.listen(0);
    try {
      const agent = request(server);
      const first = agent.get('/work').then((r) => r);
      await settled(1);
      // Joins an empty queue: a burst is absorbed.
      const queued = agent.get('/work').then((r) => r);
      await new Promise((r) => setTimeout(r, 150));
      // Answered while the first still holds the slot: shed, not queued behind it (its wait is a minute).
      const shed = await agent.get('/work').set('X-Request-ID', 'caller-7');
      expect(shed.status).toBe(503);
      expect(shed.headers['retry-after']).toBe('1');
      expect(shed.headers['x-request-id']).toBe('caller-7');
      expect(shed.headers['content-type']).toMatch(/application\/json/);
      expect(shed.body).toEqual({ detail: 'the service is at capacity: retry in a second' });
      held.shift()!();
      expect((await first).status).toBe(200);
      await settled(1);
      held.shift()!();
      expect((await queued).body).toEqual({ done: true });
      // The queue drained: the next request is served, not shed.
      const next = agent.get('/work').then((r) => r);
      await settled(1);
      held.shift()!();
      expect((await next).status).toBe(200);
    } finally {
      server.close();
    }
  });
});

describe('a turn given up for a commit', () => {
  it('when a request gives its turn up while it waits for its commit then the next is served meanwhile, and no more give theirs up than the queue holds', async () => {
    const held: (() => void)[] = [];
    const gave: boolean[] = [];
    const app = express();
    app.use(admission({ concurrency: 1, queue: 1, waitMs: 60_000 }, pino({ level: 'silent' })));
    app.get('/commit', (_req, res) => {
      gave.push(res.locals.yieldTurn!());
      held.push(() => res.json({ done: true }));
    });
    const until = async (n: number) => {
      while (held.length < n) await new Promise((r) => setTimeout(r, 5));
    };
    const server = app.listen(0);
    try {
      const agent = request(server);
      const first = agent.get('/commit').then((r) => r);
      await until(1);
      // Served while the first, which gave its turn up, still waits.
      const second = agent.get('/commit').then((r) => r);
      await until(2);
      expect(gave).toEqual([true, false]);
      // The second kept its turn (one given up is the bound): a third waits for it.
      const third = agent.get('/commit').then((r) => r);
      await new Promise((r) => setTimeout(r, 100));
      expect(held).toHaveLength(2);
      held[1]();
      await until(3);
      expect(gave).toEqual([true, false, false]);
      held[0]();
      held[2]();
      expect((await Promise.all([first, second, third])).map((r) => r.status)).toEqual([200, 200, 200]);
      // All finished: a turn can be given up again.
      const fourth = agent.get('/commit').then((r) => r);
      await until(4);
      expect(gave[3]).toBe(true);
      held[3]();
      expect((await fourth).status).toBe(200);
    } finally {
      server.close();
    }
  });
});

describe('request durations', () => {
  it('when a request waits in the queue then its duration counts from its arrival, the wait included', async () => {
    const seconds: number[] = [];
    const held: (() => void)[] = [];
    const app = express();
    // As createApp orders them: arrival first, then admission, then the observer.
    app.use(arrival);
    const arrivedAt: number[] = [];
    app.use((_req, res, next) => void (arrivedAt.push(res.locals.arrivedAt!), next()));
    app.use(admission({ concurrency: 1, queue: 10, waitMs: 60_000 }, pino({ level: 'silent' })));
    app.use(observeRequests({ begin() {}, end: (_route, _method, _status, s) => void seconds.push(s) }));
    app.get('/work', (_req, res) => void held.push(() => res.json({ done: true })));
    const server = app.listen(0);
    try {
      const agent = request(server);
      const first = agent.get('/work').then((r) => r);
      while (held.length < 1) await new Promise((r) => setTimeout(r, 5));
      const queued = agent.get('/work').then((r) => r);
      while (arrivedAt.length < 2) await new Promise((r) => setTimeout(r, 5));
      // The second waits in the queue while the first holds the only turn.
      await new Promise((r) => setTimeout(r, 300));
      const queuedFor = (performance.now() - arrivedAt[1]) / 1000;
      held.shift()!();
      await first;
      while (held.length < 1) await new Promise((r) => setTimeout(r, 5));
      held.shift()!();
      await queued;
      expect(seconds).toHaveLength(2);
      expect(queuedFor).toBeGreaterThan(0.25);
      expect(seconds[1]).toBeGreaterThanOrEqual(queuedFor);
    } finally {
      server.close();
    }
  });
});
