import type { Request, Router } from 'express';
import { ValidationError } from '../../errors.js';
import { toValidationIssues } from '../../http/validation.js';
import { sendRecordsCsv } from '../verifications/verifications-csv.js';
import { VerificationFilters } from '../verifications/verifications.schemas.js';
import type { VerificationsService } from '../verifications/verifications.service.js';
import { historyPage, type HistoryForm } from './history-page.js';
import type { DashboardKit } from './monitoring.routes.js';

const PER_PAGE = 50;
const FIELDS = ['from', 'to', 'state', 'license_number', 'verdict'] as const;

/** The filters the page's form sent (empty fields left out), as text and as a query string. */
function formOf(req: Request): { form: HistoryForm; query: string } {
  const form: HistoryForm = {};
  for (const f of FIELDS) {
    const v = req.query[f];
    if (typeof v === 'string' && v.trim()) form[f] = v.trim();
  }
  return { form, query: new URLSearchParams(form as Record<string, string>).toString() };
}

function filtersOf(form: HistoryForm) {
  const parsed = VerificationFilters.safeParse(form);
  if (!parsed.success) throw new ValidationError(toValidationIssues('query', parsed.error, form));
  return { ...parsed.data, verdicts: parsed.data.verdict };
}

/** The verification history page and its CSV download, for the signed-in account. */
export function historyRoutes(router: Router, kit: DashboardKit, verifications: VerificationsService) {
  kit.route('/verifications', 'get');
  router.get('/verifications', async (req, res) => {
    const account = await kit.pageAccount(req, res);
    if (!account) return;
    const { form, query } = formOf(req);
    let filters;
    try {
      filters = filtersOf(form);
    } catch (err) {
      const error = (err as ValidationError).issues.map((i) => `${i.loc.at(-1)}: ${i.msg}`).join('; ');
      return kit.send(res, 400, historyPage(kit.context(req, res, account), form, { error }));
    }
    const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    const { data, meta } = await verifications.list(account.id, { ...filters, cursor, per_page: PER_PAGE });
    kit.send(res, 200, historyPage(kit.context(req, res, account), form, { rows: data, next: meta.next_cursor, query }));
  });

  kit.route('/verifications.csv', 'get');
  router.get('/verifications.csv', async (req, res) => {
    const account = await kit.pageAccount(req, res);
    if (!account) return;
    await sendRecordsCsv(res, verifications.all(account.id, filtersOf(formOf(req).form)));
  });
}
