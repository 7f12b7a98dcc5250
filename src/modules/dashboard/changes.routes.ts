import type { Request, Router } from 'express';
import { addDays } from '../../domain/dates.js';
import { ValidationError } from '../../errors.js';
import { toValidationIssues } from '../../http/validation.js';
import { ChangesQuery } from '../changes/changes.schemas.js';
import type { ChangesService } from '../changes/changes.service.js';
import { changesPage, type ChangesForm } from './changes-page.js';
import type { DashboardKit } from './monitoring.routes.js';

const PER_PAGE = 50;
/** Without a date or a cursor the page starts this many days back (the feed holds 400 days of every state). */
const RECENT_DAYS = 7;

/** The filters the page's form sent (empty fields left out; `since` when it sent no date), as text and as a query string. */
function formOf(req: Request, since?: string): { form: ChangesForm; query: string } {
  const form: ChangesForm = {};
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  form.since = text(req.query.since) ?? since;
  form.state = text(req.query.state);
  const types = ([] as unknown[]).concat(req.query.types ?? []).flatMap((t) => text(t) ?? []);
  if (types.length) form.types = types;
  const params = new URLSearchParams();
  if (form.since) params.set('since', form.since);
  if (form.state) params.set('state', form.state);
  for (const t of form.types ?? []) params.append('types', t);
  return { form, query: params.toString() };
}

/** The change feed page, for the signed-in account: the API's feed, its filters in a GET form. */
export function changesRoutes(router: Router, kit: DashboardKit, changes: ChangesService) {
  kit.route('/changes', 'get');
  router.get('/changes', async (req, res) => {
    const account = await kit.pageAccount(req, res);
    if (!account) return;
    const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    const { form, query } = formOf(req, cursor ? undefined : addDays(changes.today(), -RECENT_DAYS));
    const raw = { cursor, since: cursor ? undefined : form.since, state: form.state, types: form.types?.join(','), limit: String(PER_PAGE) };
    try {
      const parsed = ChangesQuery.safeParse(raw);
      if (!parsed.success) throw new ValidationError(toValidationIssues('query', parsed.error, raw));
      const feed = await changes.feed({ ...parsed.data, account: account.id });
      kit.send(res, 200, changesPage(kit.context(req, res, account), form, { rows: feed.data, next: feed.next_cursor, more: feed.has_more, query }));
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      const error = err.issues.map((i) => `${i.loc.at(-1)}: ${i.msg}`).join('; ');
      kit.send(res, 400, changesPage(kit.context(req, res, account), form, { error }));
    }
  });
}
