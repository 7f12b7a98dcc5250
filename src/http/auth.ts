import type { RequestHandler } from 'express';

/**
 * Who calls, as the authenticator found it from the request's key. Open: the module that
 * implements the authenticator adds what it knows of the account (by module augmentation).
 */
export interface Caller {
  keyId: string;
}

/** Checks a request's Authorization header: the caller, or an UnauthorizedError. */
export interface Authenticator {
  authenticate(authorization: string | undefined): Promise<Caller>;
}

declare module 'express-serve-static-core' {
  interface Locals {
    caller?: Caller;
  }
}

/**
 * Bearer API key authentication: sets res.locals.caller or answers 401 through the error
 * middleware. `used` hears of every authenticated call, whatever it answers. A caller found
 * earlier in the request (the request rate's guard) is taken as it is.
 */
export function bearerAuth(authenticator: Authenticator, used: (caller: Caller) => void = () => {}): RequestHandler {
  return async (req, res, next) => {
    const caller = res.locals.caller ?? (await authenticator.authenticate(req.get('authorization')));
    res.locals.caller = caller;
    used(caller);
    next();
  };
}
