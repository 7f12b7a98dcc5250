import type { Request, RequestHandler, Response, Router } from 'express';
import multer from 'multer';
import { EVENT_TYPES, type EventType } from '../../domain/webhook-events.js';
import { AppError, BadRequestError, NotFoundError } from '../../errors.js';
import { stateCodeProblem } from '../../http/common.schemas.js';
import type { Account } from '../accounts/account.js';
import type { ChangesService } from '../changes/changes.service.js';
import type { VerificationsService } from '../verifications/verifications.service.js';
import type { JobsService } from '../jobs/jobs.service.js';
import type { WatchlistService } from '../watchlist/watchlist.service.js';
import { DeliveryPath, EndpointPath } from '../webhooks/webhooks.schemas.js';
import type { WebhooksService } from '../webhooks/webhooks.service.js';
import { confirmDeleteEndpoint, endpointPage, monitoringPage, type Notices } from './monitoring-pages.js';
import type { PageContext } from './pages.js';
import { parseWatchlistCsv } from './watchlist-csv.js';

export interface MonitoringServices {
  watchlist: WatchlistService;
  webhooks: WebhooksService;
  verifications: VerificationsService;
  jobs: JobsService;
  changes: ChangesService;
}

/** What the dashboard's router lends these pages: sessions, CSRF and rendering. */
export interface DashboardKit {
  route(path: string, method: 'get' | 'post'): void;
  context(req: Request, res: Response, account?: Account): PageContext;
  send(res: Response, status: number, body: string): void;
  /** The signed-in account, or a redirect to sign in (then undefined). */
  pageAccount(req: Request, res: Response): Promise<Account | undefined>;
  /** The signed-in account for a form post (401 page otherwise). */
  postAccount(req: Request): Promise<Account>;
  /** Throws 403 unless the body carries this visitor's CSRF token. */
  checkCsrf(req: Request): void;
  /** Keeps notices (a secret just made) for the next GET of `page` in this session, once. */
  flash(req: Request, page: string, notices: Notices): Promise<void>;
  /** The notices kept for `page`, taken. */
  takeFlash(req: Request, page: string): Promise<Notices | undefined>;
}

const field = (req: Request, name: string) => String((req.body as Record<string, unknown> | undefined)?.[name] ?? '').trim();
const pageParam = (req: Request) => Math.min(10_000, Math.max(1, Number.parseInt(String(req.query.page ?? '1'), 10) || 1));

/**
 * Reads a form's one CSV file (`file`) of at most `mb` MB into memory; the CSRF token comes in the
 * same multipart body, so the route checks it after this.
 */
export function csvUpload(mb: number): RequestHandler {
  const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: mb << 20, files: 1, fields: 5, fieldSize: 1024 } }).single('file');
  return (req, res, next) =>
    upload(req, res, (err?: unknown) => {
      if (!err) return next();
      if (err instanceof multer.MulterError) return next(new AppError(err.code === 'LIMIT_FILE_SIZE' ? 413 : 400, `the upload was refused (${err.message.toLowerCase()}): send one CSV file of at most ${mb} MB`));
      next(new BadRequestError(`the upload could not be read: ${(err as Error).message}`));
    });
}

/** The monitoring pages: watchlist (and its CSV upload), followed states, webhook endpoints. */
export function monitoringRoutes(router: Router, kit: DashboardKit, { watchlist, webhooks }: MonitoringServices) {
  const readUpload = csvUpload(1);

  async function overview(req: Request, res: Response, account: Account, status: number, notices: Notices = {}) {
    const limits = watchlist.limits(account);
    const [watched, states, endpoints] = await Promise.all([watchlist.page(account, pageParam(req), 100), watchlist.followed(account), webhooks.list(account)]);
    kit.send(res, status, monitoringPage(kit.context(req, res, account), { watched, watchLimit: limits.watchedLicences, states: states.data, statesLimit: limits.followedStates, endpoints: endpoints.data }, notices));
  }
  /** Redirect after a form's POST: `page`'s next GET shows `notices` once, and a reload repeats nothing. */
  async function done(req: Request, res: Response, page: string, notices: Notices) {
    await kit.flash(req, page, notices);
    res.redirect(303, page);
  }
  /**
   * Runs a monitoring form's action: a success redirects to the monitoring page (its notices shown
   * there once); a refusal the caller can act on (4xx, or an error the action returns, 400) is shown
   * on the page with its status, not as an error page.
   */
  async function act(req: Request, res: Response, account: Account, action: () => Promise<Notices>) {
    let notices: Notices;
    try {
      notices = await action();
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500 || err.status === 401 || err.status === 403) throw err;
      return overview(req, res, account, err.status, { error: err.message.replace(/^body\.\w+: /, '') });
    }
    if (notices.error) return overview(req, res, account, 400, notices);
    await done(req, res, '/dashboard/monitoring', notices);
  }

  kit.route('/monitoring', 'get');
  router.get('/monitoring', async (req, res) => {
    const account = await kit.pageAccount(req, res);
    if (account) await overview(req, res, account, 200, await kit.takeFlash(req, '/dashboard/monitoring'));
  });

  kit.route('/watchlist/upload', 'post');
  router.post('/watchlist/upload', readUpload, async (req, res) => {
    kit.checkCsrf(req);
    const account = await kit.postAccount(req);
    await act(req, res, account, async () => {
      if (!req.file) return { error: 'choose a CSV file to upload' };
      let parsed;
      try {
        parsed = await parseWatchlistCsv(req.file.buffer);
      } catch (err) {
        return { error: (err as Error).message };
      }
      if (!parsed.items.length) return { error: 'the file holds no licence this page can add', problems: parsed.problems };
      const r = await watchlist.add(account, parsed.items);
      return { info: `${r.added} licence${r.added === 1 ? '' : 's'} added, ${r.already_watched} already watched; ${r.watched} of ${r.limit} watched now.`, problems: parsed.problems };
    });
  });

  kit.route('/watchlist/remove', 'post');
  router.post('/watchlist/remove', async (req, res) => {
    const account = await kit.postAccount(req);
    await act(req, res, account, async () => {
      const r = await watchlist.remove(account, { state: field(req, 'state').toUpperCase(), license_number: field(req, 'license_number') });
      return { info: `Stopped watching ${r.state} ${r.license_number}.` };
    });
  });

  for (const action of ['follow', 'unfollow'] as const) {
    kit.route(`/states/${action}`, 'post');
    router.post(`/states/${action}`, async (req, res) => {
      const account = await kit.postAccount(req);
      const state = field(req, 'state').toUpperCase();
      await act(req, res, account, async () => {
        const problem = stateCodeProblem(state);
        if (problem) return { error: `${JSON.stringify(state)} ${problem}: use a state's two letters, such as TX` };
        if (action === 'follow') await watchlist.follow(account, state);
        else await watchlist.unfollow(account, state);
        return { info: action === 'follow' ? `Following ${state}.` : `Stopped following ${state}.` };
      });
    });
  }

  kit.route('/webhooks', 'post');
  router.post('/webhooks', async (req, res) => {
    const account = await kit.postAccount(req);
    await act(req, res, account, async () => {
      const raw = (req.body as Record<string, unknown>).event_types;
      const picked = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String);
      const known = picked.filter((t): t is EventType => (EVENT_TYPES as readonly string[]).includes(t));
      const description = field(req, 'description').slice(0, 200);
      const made = await webhooks.create(account, { url: field(req, 'url'), description: description || null, event_types: known.length ? known : null });
      return { info: `Endpoint ${made.url} added.`, secret: { endpoint: made.url, secret: made.secret } };
    });
  });

  const endpointOf = async (account: Account, id: string) => {
    if (!EndpointPath.shape.id.safeParse(id).success) throw new NotFoundError('no such webhook endpoint on this account');
    return webhooks.get(account, id);
  };
  // Used once endpointOf has found the endpoint: its id is then we_ and hex digits.
  const endpointPath = (id: string) => `/dashboard/webhooks/${id}`;

  kit.route('/webhooks/:id', 'get');
  router.get('/webhooks/:id', async (req, res) => {
    const account = await kit.pageAccount(req, res);
    if (!account) return;
    const e = await endpointOf(account, req.params.id);
    const log = await webhooks.deliveries(account, e.id, { page: pageParam(req), per_page: 25 });
    kit.send(res, 200, endpointPage(kit.context(req, res, account), e, log, await kit.takeFlash(req, endpointPath(e.id))));
  });

  kit.route('/webhooks/:id/status', 'post');
  router.post('/webhooks/:id/status', async (req, res) => {
    const account = await kit.postAccount(req);
    await endpointOf(account, req.params.id);
    const status = field(req, 'status') === 'enabled' ? 'enabled' : 'disabled';
    await webhooks.update(account, req.params.id, { status });
    await done(req, res, endpointPath(req.params.id), { info: status === 'enabled' ? 'The endpoint is enabled.' : 'The endpoint is disabled: nothing is sent to it.' });
  });

  kit.route('/webhooks/:id/rotate', 'post');
  router.post('/webhooks/:id/rotate', async (req, res) => {
    const account = await kit.postAccount(req);
    await endpointOf(account, req.params.id);
    const rotated = await webhooks.rotateSecret(account, req.params.id);
    // A reload must not rotate again (that would end the previous secret at once).
    await done(req, res, endpointPath(req.params.id), { secret: { endpoint: rotated.url, secret: rotated.secret }, info: 'The previous secret keeps signing beside the new one for 24 hours.' });
  });

  kit.route('/webhooks/:id/delete', 'get');
  kit.route('/webhooks/:id/delete', 'post');
  router.get('/webhooks/:id/delete', async (req, res) => {
    const account = await kit.pageAccount(req, res);
    if (account) kit.send(res, 200, confirmDeleteEndpoint(kit.context(req, res, account), await endpointOf(account, req.params.id)));
  });
  router.post('/webhooks/:id/delete', async (req, res) => {
    const account = await kit.postAccount(req);
    const e = await endpointOf(account, req.params.id);
    await webhooks.remove(account, e.id);
    await done(req, res, '/dashboard/monitoring', { info: `Endpoint ${e.url} deleted.` });
  });

  kit.route('/webhooks/:id/deliveries/:delivery/redeliver', 'post');
  router.post('/webhooks/:id/deliveries/:delivery/redeliver', async (req, res) => {
    const account = await kit.postAccount(req);
    await endpointOf(account, req.params.id);
    if (!DeliveryPath.shape.delivery_id.safeParse(req.params.delivery).success) throw new NotFoundError('no such delivery for this endpoint');
    await webhooks.redeliver(account, req.params.id, req.params.delivery);
    // A reload must not send it a second time.
    await done(req, res, endpointPath(req.params.id), { info: 'The delivery is being sent again.' });
  });
}
