import { timingSafeEqual } from 'node:crypto';
import express, { type Router } from 'express';
import { UnauthorizedError } from '../errors.js';
import type { RunCommand } from './admin.commands.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function sameToken(given: string | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Operator commands for the command line while the server holds the embedded data dir: loopback
 * only, with the token the server wrote to DATA_DIR/server.json. Not part of the public API.
 */
export function adminRoutes(token: string, run: RunCommand): Router {
  const router = express.Router();
  router.use((req, _res, next) => {
    if (!LOOPBACK.has(req.socket.remoteAddress ?? '') || !sameToken(req.get('x-admin-token'), token)) {
      throw new UnauthorizedError('operator endpoints answer only the local command line');
    }
    next();
  });
  router.post('/commands/:name', async (req, res) => {
    res.json({ result: await run(String(req.params.name), req.body) });
  });
  return router;
}
