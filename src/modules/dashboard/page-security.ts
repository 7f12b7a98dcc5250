import { fileURLToPath } from 'node:url';
import cookieParser from 'cookie-parser';
import Tokens from 'csrf';
import express, { type Request, type Response } from 'express';
import helmet from 'helmet';
import { ForbiddenError } from '../../errors.js';
import { errorPage, type PageContext } from './pages.js';

export interface DashboardOptions {
  /** Cookies carry Secure (also set whenever a request came over TLS). */
  secureCookies: boolean;
}

const CSRF_COOKIE = 'lvs_csrf';
export const tokens = new Tokens();
const ASSETS = fileURLToPath(new URL('./assets/', import.meta.url));
/** The multipart forms, checked by their routes once their bodies are read. */
const UPLOAD_PATHS = new Set(['/watchlist/upload', '/jobs']);

/**
 * What every dashboard page and form gets: a strict CSP, no caching, errors rendered as pages
 * (`context`: a page's context for the request), its static assets, and CSRF protection: every POST
 * carries a token made from the visitor's secret (an HttpOnly cookie, renewed at sign-in and
 * sign-out with `csrfSecret(req, res, true)`), checked in constant time.
 */
export function pageSecurity(options: DashboardOptions, context: (req: Request, res: Response) => PageContext) {
  const cookieOptions = (req: Request) => ({ httpOnly: true, sameSite: 'lax' as const, secure: options.secureCookies || req.secure, path: '/dashboard' });
  /** The visitor's CSRF secret, made (or renewed) when `fresh`. */
  const csrfSecret = (req: Request, res: Response, fresh = false): string => {
    const kept = req.cookies?.[CSRF_COOKIE] as unknown;
    if (!fresh && typeof kept === 'string' && kept) return kept;
    const secret = tokens.secretSync();
    res.cookie(CSRF_COOKIE, secret, cookieOptions(req));
    req.cookies = { ...req.cookies, [CSRF_COOKIE]: secret };
    return secret;
  };
  const checkCsrf = (req: Request) => {
    const secret = req.cookies?.[CSRF_COOKIE] as unknown;
    const token = (req.body as Record<string, unknown> | undefined)?._csrf;
    if (typeof secret !== 'string' || typeof token !== 'string' || !tokens.verify(secret, token)) {
      throw new ForbiddenError('this form has expired or did not come from this site: reload the page and try again');
    }
  };
  const csrfProtection = (req: Request, _res: Response, next: (err?: unknown) => void) => {
    if (req.method !== 'POST') return next();
    if (UPLOAD_PATHS.has(req.path) && req.is('multipart/form-data')) return next();
    try {
      checkCsrf(req);
    } catch (err) {
      return next(err);
    }
    next();
  };

  const router = express.Router();
  router.use(
    helmet.contentSecurityPolicy({
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'"],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
    }),
  );
  router.use('/assets', express.static(ASSETS, { index: false, maxAge: '1h' }));
  router.use(cookieParser());
  router.use((req, res, next) => {
    res.set('Cache-Control', 'no-store');
    // Errors of these pages are rendered as pages, by the one error middleware.
    res.locals.renderError = (status: number, message: string) => errorPage(context(req, res), status, message);
    next();
  });
  // Repeated fields (the webhook form's event types) arrive as arrays.
  router.use(express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 30 }));
  router.use(csrfProtection);

  return { router, cookieOptions, csrfSecret, checkCsrf };
}
