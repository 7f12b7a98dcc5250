import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Caller } from './auth.js';

/** The answer as served: 200, or 304 where the caller's cached copy is current; and its body's SHA-256. */
export interface ServedAnswer {
  status: number;
  sha256: string;
}

/** Records an answer for its caller; resolves with the record ids once they are committed. */
export type AnswerRecorder = (caller: Caller, served: ServedAnswer) => Promise<string[]>;

/**
 * Commits the record of `body` before it is sent and names it in `Verification-Id` (one id per
 * licence answered, in order). The ETag is set here as Express would set it, so a conditional GET
 * is known to be answered 304 and recorded as such. A call its meter refuses is not recorded (it
 * answers 402/429 instead); without a caller (access control off) nothing is recorded.
 */
export async function recordBeforeSending(req: Request, res: Response, body: unknown, record: AnswerRecorder): Promise<void> {
  const caller = res.locals.caller;
  if (!caller) return;
  if (!(await (res.locals.admission ?? Promise.resolve()).then(() => true, () => false))) return;
  // These bytes are what is sent (route.ts sends them as they are): their hash is the body's.
  const bytes = Buffer.from(JSON.stringify(body));
  const etagFn = req.app.get('etag fn') as ((body: Buffer, encoding: string) => string) | undefined;
  const etag = etagFn?.(bytes, 'utf8');
  // req.fresh compares If-None-Match with the response's ETag; an answer that fails carries none.
  if (etag) res.set('ETag', etag);
  const status = req.fresh ? 304 : 200;
  if (etag) res.removeHeader('ETag');
  const recorded = record(caller, { status, sha256: createHash('sha256').update(bytes).digest('hex') });
  // What is left is the commit's wait (admission.ts).
  res.locals.yieldTurn?.();
  const ids = await recorded;
  if (etag) res.set('ETag', etag);
  res.set('Verification-Id', ids.join(', '));
  res.locals.serializedBody = bytes;
}
