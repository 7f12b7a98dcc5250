import type { RequestHandler } from 'express';
import type { AccountsService, Caller } from '../modules/accounts/accounts.service.js';

declare module 'express-serve-static-core' {
  interface Locals {
    caller?: Caller;
  }
}

/** Bearer API key authentication: sets res.locals.caller or answers 401 through the error middleware. */
export function bearerAuth(accounts: AccountsService): RequestHandler {
  return async (req, res, next) => {
    res.locals.caller = await accounts.authenticate(req.get('authorization'));
    next();
  };
}
