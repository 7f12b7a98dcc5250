// The dashboard's verification history: the verification log with its filters and the CSV download.
import { VERDICTS } from '../../domain/verdict.js';
import type { VerificationRecord } from '../verifications/verifications.service.js';
import { html, notice, page, when, type PageContext } from './pages.js';
import { nameSentCell, reviewerCell } from '../verifications/verifications-csv.js';

/** The filters as the form sent them (raw text, shown back in the form). */
export type HistoryForm = Partial<Record<'from' | 'to' | 'state' | 'license_number' | 'verdict', string>>;

const field = (id: keyof HistoryForm, label: string, form: HistoryForm, attrs: { type?: string; hint?: string } = {}) =>
  html`<div class="field"><label for="${id}">${label}</label><input id="${id}" name="${id}" type="${attrs.type ?? 'text'}" value="${form[id] ?? ''}"${attrs.hint ? html` aria-describedby="${id}-hint"` : ''}>${attrs.hint ? html`<p class="hint" id="${id}-hint">${attrs.hint}</p>` : ''}</div>`;

/** The latest review's decision and who made it, or a link to the queue for a consider not yet reviewed. */
const review = (r: VerificationRecord) => {
  const latest = r.reviews.at(-1);
  if (latest) return html`<span title="${latest.reason}">${latest.decision}</span> by ${reviewerCell(latest.reviewer)}`;
  return r.verdict === 'consider' ? html`<a href="/dashboard/reviews">to review</a>` : '—';
};

export function historyPage(ctx: PageContext, form: HistoryForm, result: { rows: VerificationRecord[]; next: string | null; query: string } | { error: string }): string {
  const query = 'query' in result ? result.query : '';
  const verdict = html`<div class="field"><label for="verdict">Verdict</label><select id="verdict" name="verdict"><option value="">Any</option>${VERDICTS.map(
    (v) => html`<option value="${v}"${form.verdict === v ? ' selected' : ''}>${v}</option>`,
  )}</select></div>`;
  const table =
    'rows' in result
      ? result.rows.length
        ? html`<table><caption>Verifications, newest first</caption><thead><tr><th scope="col">When</th><th scope="col">Licence</th><th scope="col">Name asked</th><th scope="col">Verdict</th><th scope="col">Reasons</th><th scope="col">Status served</th><th scope="col">Review</th><th scope="col">Record</th></tr></thead><tbody>${result.rows.map(
            (r) =>
              html`<tr><td>${when(r.created_at)}</td><td>${r.state} <code>${r.license_number}</code></td><td>${nameSentCell(r.name_sent)}${r.name_match ? html` (${r.name_match.result})` : ''}</td><td>${r.verdict}</td><td>${r.reasons.join(', ') || '—'}</td><td>${r.license_status ?? '—'}</td><td>${review(r)}</td><td><code title="SHA-256 of the body served: ${r.body_sha256}">${r.id}</code> <a href="/dashboard/verifications/${r.id}/certificate.pdf" download>PDF</a></td></tr>`,
          )}</tbody></table>${result.next ? html`<p><a href="/dashboard/verifications?${query ? `${query}&` : ''}cursor=${encodeURIComponent(result.next)}">Older verifications</a></p>` : ''}`
        : html`<p>No verifications match.</p>`
      : notice(result.error);
  return page(
    'Verifications',
    ctx,
    html`<p>Every licence your keys verified, with what was answered. Kept for your plan's time; the API serves the same records at <code>/api/v1/verifications</code>.</p>
<form method="get" action="/dashboard/verifications" class="filters">
  ${field('from', 'From (date)', form, { type: 'date' })}
  ${field('to', 'To (date, included)', form, { type: 'date' })}
  ${field('state', 'State', form, { hint: 'Two letters, such as TX' })}
  ${field('license_number', 'Licence number', form)}
  ${verdict}
  <button type="submit">Show</button>
</form>
<p><a href="/dashboard/verifications.csv${query ? `?${query}` : ''}" download>Download these as CSV</a> · <a href="/dashboard/reviews">Consider answers waiting for review</a></p>
${table}`,
  );
}
