import type { Request, Response, Router } from 'express';
import { BadRequestError, NotFoundError } from '../../errors.js';
import type { MethodTable } from '../../http/methods.js';
import type { Account } from '../accounts/account.js';
import { SESSION_TTL_MS, type DashboardService } from './dashboard.service.js';
import { monitoringRoutes, type DashboardKit, type MonitoringServices } from './monitoring.routes.js';
import { historyRoutes } from './history.routes.js';
import { reviewRoutes } from './review-queue.js';
import { changesRoutes } from './changes.routes.js';
import { rosterRoutes } from './roster.routes.js';
import { accountPage, checkEmail, confirmLink, confirmRevoke, emailForm, type PageContext } from './pages.js';
import { pageSecurity, tokens, type DashboardOptions } from './page-security.js';

export type { DashboardOptions };

const SESSION_COOKIE = 'lvs_session';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The dashboard under /dashboard: HTML forms with cookies, outside the /api/v1 rules (no bearer
 * keys, no JSON bodies, no CORS); page-security.ts holds what every page and form gets.
 */
export function dashboardRoutes(service: DashboardService, methods: MethodTable, options: DashboardOptions, monitoring: MonitoringServices): Router {
  const { router, cookieOptions, csrfSecret, checkCsrf } = pageSecurity(options, (req, res) => context(req, res));

  const sessionOf = (req: Request) => req.cookies?.[SESSION_COOKIE] as string | undefined;
  const context = (req: Request, res: Response, account?: Account): PageContext => ({ csrf: tokens.create(csrfSecret(req, res)), signedInAs: account?.email });
  const send = (res: Response, status: number, body: string) => res.status(status).type('html').send(body);
  const signedIn = async (req: Request, res: Response) => {
    const account = await service.sessionAccount(sessionOf(req));
    if (!account && sessionOf(req)) res.clearCookie(SESSION_COOKIE, { path: '/dashboard' });
    return account;
  };
  const route = (path: string, method: 'get' | 'post') => methods.add(`/dashboard${path}`, method);

  route('', 'get');
  router.get('/', async (req, res) => {
    const account = await signedIn(req, res);
    if (!account) return res.redirect(303, `/dashboard/sign-in${sessionOf(req) ? '?ended=1' : ''}`);
    const revoked = typeof req.query.revoked === 'string' ? req.query.revoked.slice(0, 4) : undefined;
    const flash = await service.takeFlash<{ createdKey?: { key: string; label: string | null } }>(sessionOf(req), '/dashboard');
    send(res, 200, accountPage(context(req, res, account), await service.overview(account), { info: revoked ? `The key ending ${revoked} is revoked.` : undefined, createdKey: flash?.createdKey }));
  });

  for (const kind of ['sign-up', 'sign-in'] as const) {
    route(`/${kind}`, 'get');
    route(`/${kind}`, 'post');
    router.get(`/${kind}`, async (req, res) => {
      if (await signedIn(req, res)) return res.redirect(303, '/dashboard');
      const info = req.query.ended ? 'Your session has ended: sign in again.' : req.query['signed-out'] ? 'You are signed out.' : undefined;
      send(res, 200, emailForm(kind, context(req, res), { off: !service.open, info }));
    });
    router.post(`/${kind}`, async (req, res) => {
      const email = String((req.body as Record<string, unknown>).email ?? '');
      try {
        const sent = await service.requestLink(kind, email, req.ip ?? '');
        send(res, 200, checkEmail(context(req, res), sent, kind));
      } catch (err) {
        if (!(err instanceof BadRequestError)) throw err;
        send(res, 400, emailForm(kind, context(req, res), { error: err.message, email }));
      }
    });
  }

  route('/resend', 'post');
  router.post('/resend', async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const kind = body.kind === 'sign-in' ? 'sign-in' : 'sign-up';
    const sent = await service.requestLink(kind, String(body.email ?? ''), req.ip ?? '');
    send(res, 200, checkEmail(context(req, res), sent, kind));
  });

  route('/link', 'get');
  route('/link', 'post');
  router.get('/link', async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const link = token ? await service.linkState(token) : { state: 'unknown' as const };
    // Signed in already: the page says which account the link would replace.
    const current = await signedIn(req, res);
    send(res, link.state === 'valid' ? 200 : 400, confirmLink(context(req, res, current), token, link));
  });
  router.post('/link', async (req, res) => {
    const { session } = await service.useLink(String((req.body as Record<string, unknown>).token ?? ''), sessionOf(req));
    res.cookie(SESSION_COOKIE, session, { ...cookieOptions(req), maxAge: SESSION_TTL_MS });
    csrfSecret(req, res, true);
    res.redirect(303, '/dashboard');
  });

  route('/keys', 'post');
  router.post('/keys', async (req, res) => {
    const account = await service.requireSession(sessionOf(req));
    const raw = String((req.body as Record<string, unknown>).label ?? '').trim();
    const error = raw.length > 100 ? 'a label is at most 100 characters' : CONTROL.test(raw) ? 'a label cannot hold control characters' : undefined;
    if (error) return send(res, 400, accountPage(context(req, res, account), await service.overview(account), { error }));
    const key = await service.createKey(account, raw || null);
    // Redirect after POST: a reload of the page shows the account, and makes no second key.
    await service.flash(sessionOf(req), '/dashboard', { createdKey: { key: key.key, label: key.label } });
    res.redirect(303, '/dashboard');
  });

  route('/keys/:id/revoke', 'get');
  route('/keys/:id/revoke', 'post');
  const keyOf = async (account: Account, id: string) => {
    const keys = await service.keys(account);
    const key = UUID.test(id) ? keys.find((k) => k.id === id) : undefined;
    if (!key) throw new NotFoundError('no such active key on this account');
    return { key, last: keys.length === 1 };
  };
  router.get('/keys/:id/revoke', async (req, res) => {
    const account = await signedIn(req, res);
    if (!account) return res.redirect(303, '/dashboard/sign-in?ended=1');
    const { key, last } = await keyOf(account, req.params.id);
    send(res, 200, confirmRevoke(context(req, res, account), key, last));
  });
  router.post('/keys/:id/revoke', async (req, res) => {
    const account = await service.requireSession(sessionOf(req));
    const { key } = await keyOf(account, req.params.id);
    await service.revokeKey(account, key.id);
    res.redirect(303, `/dashboard?revoked=${encodeURIComponent(key.last_four)}`);
  });

  const kit: DashboardKit = {
    route,
    context,
    send,
    checkCsrf,
    async pageAccount(req, res) {
      const account = await signedIn(req, res);
      if (!account) res.redirect(303, `/dashboard/sign-in${sessionOf(req) ? '?ended=1' : ''}`);
      return account;
    },
    postAccount: (req) => service.requireSession(sessionOf(req)),
    flash: (req, page, value) => service.flash(sessionOf(req), page, value),
    takeFlash: (req, page) => service.takeFlash(sessionOf(req), page),
  };
  monitoringRoutes(router, kit, monitoring);
  historyRoutes(router, kit, monitoring.verifications);
  reviewRoutes(router, kit, monitoring.verifications);
  changesRoutes(router, kit, monitoring.changes);
  rosterRoutes(router, kit, monitoring.jobs);

  route('/sign-out', 'post');
  router.post('/sign-out', async (req, res) => {
    await service.signOut(sessionOf(req));
    res.clearCookie(SESSION_COOKIE, { path: '/dashboard' });
    csrfSecret(req, res, true);
    res.redirect(303, '/dashboard/sign-in?signed-out=1');
  });
  return router;
}

