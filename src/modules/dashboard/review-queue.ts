// The dashboard's review queue: consider answers no one has reviewed, oldest first, a form each.
import type { Request, Response, Router } from 'express';
import { AppError } from '../../errors.js';
import type { Account } from '../accounts/account.js';
import { nameSentCell } from '../verifications/verifications-csv.js';
import { sendCertificate } from '../verifications/verifications-pdf.js';
import { REVIEW_DECISIONS, ReviewBody, VerificationPath } from '../verifications/verifications.schemas.js';
import type { VerificationRecord, VerificationsService } from '../verifications/verifications.service.js';
import type { DashboardKit } from './monitoring.routes.js';
import type { Notices } from './monitoring-pages.js';
import { csrfField, errorPage, html, notice, page, when, type PageContext } from './pages.js';

const PER_PAGE = 50;
const QUEUE = '/dashboard/reviews';

function queuePage(ctx: PageContext, rows: VerificationRecord[], next: string | null, n: Notices): string {
  const form = (r: VerificationRecord) =>
    html`<form method="post" action="${QUEUE}" class="inline review">${csrfField(ctx.csrf)}<input type="hidden" name="id" value="${r.id}">
<label for="decision-${r.id}">Decision</label> <select id="decision-${r.id}" name="decision">${REVIEW_DECISIONS.map((d) => html`<option value="${d}">${d}</option>`)}</select>
<label for="reason-${r.id}">Reason</label> <input id="reason-${r.id}" name="reason" required maxlength="2000">
<button type="submit">Record</button></form>`;
  const table = rows.length
    ? html`<table><caption>Consider answers waiting for a person, oldest first</caption><thead><tr><th scope="col">When</th><th scope="col">Licence</th><th scope="col">Name asked</th><th scope="col">Reasons</th><th scope="col">Status served</th><th scope="col">Decision</th></tr></thead><tbody>${rows.map(
        (r) =>
          html`<tr><td>${when(r.created_at)}</td><td>${r.state} <code>${r.license_number}</code> <a href="/dashboard/verifications/${r.id}/certificate.pdf" download>PDF</a></td><td>${nameSentCell(r.name_sent)}${r.name_match ? html` (${r.name_match.result})` : ''}</td><td>${r.reasons.join(', ') || '—'}</td><td>${r.license_status ?? '—'}</td><td>${form(r)}</td></tr>`,
      )}</tbody></table>${next ? html`<p><a href="${QUEUE}?cursor=${encodeURIComponent(next)}">Later answers</a></p>` : ''}`
    : html`<p>Nothing waits: every consider answer has a review.</p>`;
  return page(
    'Reviews',
    ctx,
    html`${notice(n.error)}${notice(n.info, 'info')}<p>A review records what a person decided about an answer; the answer itself never changes. Each is signed, and shows in the record, its CSV and its PDF. The API lists the same queue at <code>/api/v1/verifications?verdict=consider&amp;reviewed=false&amp;order=oldest</code>.</p>
${table}`,
  );
}

/** The review queue, the review form's post, and a record's certificate PDF, for the signed-in account. */
export function reviewRoutes(router: Router, kit: DashboardKit, verifications: VerificationsService) {
  async function show(req: Request, res: Response, account: Account, status: number, n: Notices = {}) {
    const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    const { data, meta } = await verifications.list(account.id, { verdicts: ['consider'], reviewed: false, order: 'oldest', cursor, per_page: PER_PAGE });
    kit.send(res, status, queuePage(kit.context(req, res, account), data, meta.next_cursor, n));
  }

  kit.route('/reviews', 'get');
  router.get('/reviews', async (req, res) => {
    const account = await kit.pageAccount(req, res);
    if (account) await show(req, res, account, 200, await kit.takeFlash(req, QUEUE));
  });

  kit.route('/reviews', 'post');
  router.post('/reviews', async (req, res) => {
    kit.checkCsrf(req);
    const account = await kit.postAccount(req);
    const form = (req.body ?? {}) as Record<string, unknown>;
    const id = VerificationPath.safeParse({ id: form.id });
    const input = ReviewBody.safeParse({ decision: form.decision, reason: form.reason });
    if (!id.success || !input.success) {
      const problem = !id.success ? 'that answer is not one of this account\'s' : `${String(input.error!.issues[0].path[0])}: ${input.error!.issues[0].message}`;
      return show(req, res, account, 400, { error: problem });
    }
    try {
      await verifications.review(account.id, id.data.id, input.data, { type: 'dashboard_user', email: account.email });
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 404) throw err;
      return show(req, res, account, 404, { error: err.message });
    }
    await kit.flash(req, QUEUE, { info: `Review recorded: ${input.data.decision}.` });
    res.redirect(303, QUEUE);
  });

  kit.route('/verifications/:id/certificate.pdf', 'get');
  router.get('/verifications/:id/certificate.pdf', async (req, res) => {
    const account = await kit.pageAccount(req, res);
    if (!account) return;
    const id = VerificationPath.safeParse({ id: req.params.id });
    if (!id.success) return kit.send(res, 404, errorPage(kit.context(req, res, account), 404, 'no such verification in this account'));
    const { record, receipt } = await verifications.certificate(account.id, id.data.id);
    await sendCertificate(res, record, receipt, verifications.issuer());
  });
}
