// The dashboard's roster jobs: the upload form and list, and a job's page (progress, summary by
// verdict, its consider rows, the CSV download). dashboard.js updates a running job's progress.
import type { ValidationIssue } from '../../errors.js';
import type { JobResult, JobView } from '../jobs/jobs.views.js';
import { csrfField, html, notice, page, when, type PageContext } from './pages.js';

const ACTIVE = new Set(['queued', 'running']);

const progress = (j: JobView) =>
  html`<progress id="job-progress" max="${j.rows_total}" value="${j.rows_done}" aria-labelledby="job-progress-label"></progress> <span id="job-progress-label">${j.rows_done.toLocaleString('en-US')} of ${j.rows_total.toLocaleString('en-US')} rows done</span>`;

/** Where a refused file's problems are: a line and field, as the API's detail names them. */
const where = (i: ValidationIssue) => (i.loc[1] === 'line' ? `line ${i.loc[2]}${i.loc[3] ? `, ${i.loc[3]}` : ''}` : 'the file');

/** `unpaid`: why this account's plan has no roster jobs (the upload form is then left out). */
export function rosterListPage(ctx: PageContext, jobs: JobView[], state: { error?: string; problems?: ValidationIssue[]; unpaid?: string } = {}): string {
  const problems = state.problems?.length
    ? html`<ul class="problems">${state.problems.slice(0, 20).map((p) => html`<li>${where(p)}: ${p.msg}</li>`)}</ul>`
    : '';
  const list = jobs.length
    ? html`<table><caption>Your jobs, newest first</caption><thead><tr><th scope="col">Job</th><th scope="col">Uploaded</th><th scope="col">Status</th><th scope="col">Rows</th><th scope="col">Consider</th><th scope="col">Not found</th></tr></thead><tbody>${jobs.map(
        (j) =>
          html`<tr><td><a href="/dashboard/jobs/${j.id}">${j.label ?? `Job ${j.id.slice(0, 8)}`}</a></td><td>${when(j.created_at)}</td><td>${j.status}</td><td>${j.rows_done.toLocaleString('en-US')} of ${j.rows_total.toLocaleString('en-US')}</td><td>${j.counts.consider}</td><td>${j.counts.not_found}</td></tr>`,
      )}</tbody></table>`
    : html`<p>No jobs yet.</p>`;
  return page(
    'Roster jobs',
    ctx,
    html`<p>Upload a roster (a CSV file of up to 100,000 rows with columns for the state and the licence number, and optionally the name) to verify it in the background. The API does the same at <code>/api/v1/verification-jobs</code>.</p>
${notice(state.error)}${problems}
${state.unpaid ? html`<p class="info" role="status" id="jobs-need-a-paid-plan">Roster jobs need a paid plan: ${state.unpaid}. Your plan still verifies licences one at a time (<code>GET /api/v1/licensees/verify</code>).</p>` : uploadForm(ctx)}
${list}`,
  );
}

const uploadForm = (ctx: PageContext) => html`<form method="post" action="/dashboard/jobs" enctype="multipart/form-data">
  ${csrfField(ctx.csrf)}
  <label for="file">Roster (CSV)</label>
  <input id="file" name="file" type="file" accept=".csv,text/csv" required aria-describedby="file-hint">
  <p class="hint" id="file-hint">A header naming the columns: state (or ST), license_number (or License #, Lic No), and name, or first_name and last_name. Other columns are ignored.</p>
  <label for="label">Name of the job (optional)</label>
  <input id="label" name="label" type="text" maxlength="200">
  <div class="check"><input id="watch" name="watch" type="checkbox" value="true"> <label for="watch">Also watch every licence found (within your plan's watchlist limit)</label></div>
  <button type="submit">Upload and verify</button>
</form>`;

export function rosterJobPage(ctx: PageContext, j: JobView, consider: { rows: JobResult[]; next: string | null }): string {
  const active = ACTIVE.has(j.status);
  const counts = html`<table id="job-counts"><caption>Rows by verdict</caption><thead><tr><th scope="col">Verdict</th><th scope="col">Rows</th></tr></thead><tbody>
<tr><td>clear</td><td data-count="clear">${j.counts.clear}</td></tr><tr><td>consider</td><td data-count="consider">${j.counts.consider}</td></tr><tr><td>not_found</td><td data-count="not_found">${j.counts.not_found}</td></tr></tbody></table>`;
  const rows = consider.rows.length
    ? html`<table><caption>Rows to consider, in roster order</caption><thead><tr><th scope="col">Row</th><th scope="col">Licence</th><th scope="col">Holder</th><th scope="col">Reasons</th><th scope="col">Name match</th></tr></thead><tbody>${consider.rows.map(
        (r) =>
          html`<tr><td>${r.row}</td><td>${r.state} <code>${r.license_number}</code></td><td>${r.licensee?.full_name ?? r.licensee?.business_name ?? '—'}</td><td>${r.reasons.join(', ')}</td><td>${r.name_match ? `${r.name_match.result} (${r.name_match.compared_with.value})` : '—'}</td></tr>`,
      )}</tbody></table>${consider.next ? html`<p><a href="/dashboard/jobs/${j.id}?cursor=${encodeURIComponent(consider.next)}">More rows to consider</a></p>` : ''}`
    : html`<p>${active ? 'No row to consider so far.' : 'No row to consider.'}</p>`;
  const watch = j.watchlist
    ? html`<p>Watchlist: ${j.watchlist.added} added, ${j.watchlist.already_watched} already watched${j.watchlist.over_limit ? html`, <strong>${j.watchlist.over_limit} left off</strong> (the plan watches at most ${j.watchlist.limit})` : ''}.</p>`
    : '';
  return page(
    j.label ?? `Job ${j.id.slice(0, 8)}`,
    ctx,
    html`<section aria-labelledby="job-status-heading" id="job" data-job="${j.id}" data-status="${j.status}">
<h2 id="job-status-heading">Status</h2>
<p role="status" aria-live="polite" id="job-status">${j.status}${j.error ? html`: ${j.error.message}` : ''}</p>
<p>${progress(j)}</p>
${counts}
${watch}
<p><a href="/dashboard/jobs/${j.id}/results.csv" download>Download every row as CSV</a> · ${active ? '' : html`<a href="/dashboard/jobs/${j.id}/summary.pdf" download>Summary PDF with its signed receipt</a> · `}<a href="/dashboard/jobs">All jobs</a></p>
${active ? html`<form method="post" action="/dashboard/jobs/${j.id}/cancel">${csrfField(ctx.csrf)}<button type="submit" class="danger">Cancel the job</button></form>` : ''}
</section>
<section aria-labelledby="consider-heading">
<h2 id="consider-heading">Rows to consider</h2>
${rows}
</section>`,
  );
}
