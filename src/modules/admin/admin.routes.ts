import { timingSafeEqual } from 'node:crypto';
import express, { type Router } from 'express';
import { z } from 'zod';
import { UnauthorizedError, ValidationError } from '../../errors.js';
import { toValidationIssues } from '../../http/validation.js';
import type { ImportSummary } from '../../ingest/canonical-import.js';

const ImportRequest = z.object({ folder: z.string().min(1) });

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function sameToken(given: string | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Operator endpoints for the command line while the server holds the embedded data dir: loopback
 * only, with the token the server wrote to DATA_DIR/server.json. Not part of the public API.
 */
export function adminRoutes(token: string, runImport: (folder: string) => Promise<ImportSummary>): Router {
  const router = express.Router();
  router.use((req, _res, next) => {
    if (!LOOPBACK.has(req.socket.remoteAddress ?? '') || !sameToken(req.get('x-admin-token'), token)) {
      throw new UnauthorizedError('operator endpoints answer only the local command line');
    }
    next();
  });
  router.post('/imports', async (req, res) => {
    const parsed = ImportRequest.safeParse(req.body);
    if (!parsed.success) throw new ValidationError(toValidationIssues('body', parsed.error, req.body));
    res.json(await runImport(parsed.data.folder));
  });
  return router;
}
