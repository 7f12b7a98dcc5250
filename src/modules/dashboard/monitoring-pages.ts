// The dashboard's monitoring pages: the watchlist (with a CSV upload), followed states, and
// webhook endpoints with their delivery logs. Same rules as pages.ts: forms, no inline script.
import { EVENT_TYPES } from '../../domain/webhook-events.js';
import type { WatchlistService } from '../watchlist/watchlist.service.js';
import type { WebhooksService } from '../webhooks/webhooks.service.js';
import { csrfField, html, notice, page, shownOnce, when, type PageContext } from './pages.js';

export interface MonitoringView {
  watched: Awaited<ReturnType<WatchlistService['page']>>;
  watchLimit: number;
  states: Awaited<ReturnType<WatchlistService['followed']>>['data'];
  statesLimit: number;
  endpoints: Awaited<ReturnType<WebhooksService['list']>>['data'];
}
type Endpoint = MonitoringView['endpoints'][number];
type Deliveries = Awaited<ReturnType<WebhooksService['deliveries']>>;

export interface Notices {
  info?: string;
  error?: string;
  /** Lines of an upload that were left out. */
  problems?: { line: number; reason: string }[];
  /** A signing secret just made: shown this once. */
  secret?: { endpoint: string; secret: string };
}

function notices(n: Notices) {
  const problems = n.problems?.length
    ? html`<div class="error" role="alert"><p>${n.problems.length} line${n.problems.length === 1 ? ' was' : 's were'} left out:</p><ul>${n.problems
        .slice(0, 20)
        .map((p) => html`<li>line ${p.line}: ${p.reason}</li>`)}</ul>${n.problems.length > 20 ? html`<p>and ${n.problems.length - 20} more.</p>` : ''}</div>`
    : '';
  const secret = n.secret
    ? shownOnce('raw-secret', html`Signing secret for ${n.secret.endpoint}`, html`Verify every delivery with it (Standard Webhooks; see the <a href="/docs">API documentation</a>).`, 'Signing secret', n.secret.secret)
    : '';
  return html`${notice(n.error)}${notice(n.info, 'info')}${problems}${secret}`;
}

const types = (t: string[] | null) => (t ? t.join(', ') : 'all event types');

export function monitoringPage(ctx: PageContext, v: MonitoringView, n: Notices = {}): string {
  const w = v.watched;
  const pages = Math.max(1, Math.ceil(w.meta.total / w.meta.per_page));
  const watched = w.data.length
    ? html`<table><caption>Watched licences (page ${w.meta.page} of ${pages})</caption><thead><tr><th scope="col">State</th><th scope="col">Licence</th><th scope="col">Since</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${w.data.map(
        (l) => html`<tr><td>${l.state}</td><td><code>${l.license_number}</code></td><td>${when(l.added_at)}</td><td><form method="post" action="/dashboard/watchlist/remove" class="inline">${csrfField(ctx.csrf)}<input type="hidden" name="state" value="${l.state}"><input type="hidden" name="license_number" value="${l.license_number}"><button type="submit" class="link">Stop watching<span class="visually-hidden"> ${l.state} ${l.license_number}</span></button></form></td></tr>`,
      )}</tbody></table>
${w.meta.page > 1 ? html`<a href="/dashboard/monitoring?page=${w.meta.page - 1}">Previous page</a> ` : ''}${w.meta.page < pages ? html`<a href="/dashboard/monitoring?page=${w.meta.page + 1}">Next page</a>` : ''}`
    : html`<p>No licences watched yet.</p>`;
  const states = v.states.length
    ? html`<ul>${v.states.map((s) => html`<li>${s.state} <form method="post" action="/dashboard/states/unfollow" class="inline">${csrfField(ctx.csrf)}<input type="hidden" name="state" value="${s.state}"><button type="submit" class="link">Stop following<span class="visually-hidden"> ${s.state}</span></button></form></li>`)}</ul>`
    : html`<p>No states followed.</p>`;
  const endpoints = v.endpoints.length
    ? html`<table><caption>Webhook endpoints</caption><thead><tr><th scope="col">URL</th><th scope="col">Status</th><th scope="col">Events</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${v.endpoints.map(
        (e) => html`<tr><td><code>${e.url}</code>${e.description ? html`<br>${e.description}` : ''}</td><td>${e.status}</td><td>${types(e.event_types)}</td><td><a href="/dashboard/webhooks/${e.id}">Manage<span class="visually-hidden"> ${e.url}</span></a></td></tr>`,
      )}</tbody></table>`
    : html`<p>No webhook endpoints yet.</p>`;
  return page(
    'Monitoring',
    ctx,
    html`${notices(n)}
<section aria-labelledby="watchlist">
<h2 id="watchlist">Watched licences</h2>
<p>${w.meta.total} of ${v.watchLimit} watched. Their changes go to your webhook endpoints.</p>
${watched}
<form method="post" action="/dashboard/watchlist/upload" enctype="multipart/form-data">
  ${csrfField(ctx.csrf)}
  <label for="csv">Add licences from a CSV file</label>
  <p class="hint" id="csv-hint">A header line naming <code>state</code> and <code>license_number</code>; up to 10,000 rows. A licence not on file yet may be watched.</p>
  <input id="csv" name="file" type="file" accept=".csv,text/csv" required aria-describedby="csv-hint">
  <button type="submit">Upload</button>
</form>
</section>
<section aria-labelledby="states">
<h2 id="states">Followed states</h2>
<p>Every change in a followed state goes to your webhook endpoints (${v.states.length} of ${v.statesLimit}).</p>
${states}
<form method="post" action="/dashboard/states/follow">
  ${csrfField(ctx.csrf)}
  <label for="state">Follow a state (two letters)</label>
  <input id="state" name="state" type="text" required minlength="2" maxlength="2" pattern="[A-Za-z]{2}" autocomplete="off">
  <button type="submit">Follow</button>
</form>
</section>
<section aria-labelledby="webhooks">
<h2 id="webhooks">Webhook endpoints</h2>
${endpoints}
<form method="post" action="/dashboard/webhooks">
  ${csrfField(ctx.csrf)}
  <label for="url">Endpoint URL (https)</label>
  <input id="url" name="url" type="text" inputmode="url" required maxlength="2000">
  <label for="description">Description (optional)</label>
  <input id="description" name="description" type="text" maxlength="200">
  <fieldset><legend>Event types (none ticked: all)</legend>
  ${EVENT_TYPES.map((t) => html`<label class="check"><input type="checkbox" name="event_types" value="${t}"> ${t}</label>`)}
  </fieldset>
  <button type="submit">Add the endpoint</button>
</form>
</section>`,
  );
}

export function endpointPage(ctx: PageContext, e: Endpoint, log: Deliveries, n: Notices = {}): string {
  const pages = Math.max(1, Math.ceil(log.meta.total / log.meta.per_page));
  const rows = log.data.map(
    (d) => html`<tr><td><code>${d.event_type}</code><br><small>${d.event_id}</small></td><td>${d.status}</td><td>${d.attempts}</td><td>${d.last_status_code ?? d.last_error ?? '—'}</td><td>${when(d.last_attempt_at)}</td><td>${d.status === 'pending' ? when(d.next_attempt_at) : ''}<form method="post" action="/dashboard/webhooks/${e.id}/deliveries/${d.id}/redeliver" class="inline">${csrfField(ctx.csrf)}<button type="submit" class="link">Send again<span class="visually-hidden"> ${d.id}</span></button></form></td></tr>`,
  );
  return page(
    'Webhook endpoint',
    ctx,
    html`${notices(n)}
<dl>
<dt>URL</dt><dd><code>${e.url}</code></dd>
<dt>Description</dt><dd>${e.description ?? '—'}</dd>
<dt>Events</dt><dd>${types(e.event_types)}</dd>
<dt>Status</dt><dd>${e.status}${e.disabled_reason ? html` (${e.disabled_reason})` : ''}</dd>
<dt>Created</dt><dd>${when(e.created_at)}</dd>
${e.previous_secret_expires_at ? html`<dt>Previous secret</dt><dd>still signs until ${when(e.previous_secret_expires_at)}</dd>` : ''}
</dl>
<form method="post" action="/dashboard/webhooks/${e.id}/status" class="inline">${csrfField(ctx.csrf)}<input type="hidden" name="status" value="${e.status === 'enabled' ? 'disabled' : 'enabled'}"><button type="submit">${e.status === 'enabled' ? 'Disable' : 'Enable'}</button></form>
<form method="post" action="/dashboard/webhooks/${e.id}/rotate" class="inline">${csrfField(ctx.csrf)}<button type="submit">Rotate the signing secret</button></form>
<a href="/dashboard/webhooks/${e.id}/delete">Delete the endpoint</a>
<section aria-labelledby="log">
<h2 id="log">Deliveries</h2>
${log.data.length ? html`<table><caption>Newest first (page ${log.meta.page} of ${pages}, ${log.meta.total} in the last 30 days)</caption><thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th><th scope="col">Last attempt</th><th scope="col">Next</th></tr></thead><tbody>${rows}</tbody></table>
${log.meta.page > 1 ? html`<a href="/dashboard/webhooks/${e.id}?page=${log.meta.page - 1}">Newer</a> ` : ''}${log.meta.page < pages ? html`<a href="/dashboard/webhooks/${e.id}?page=${log.meta.page + 1}">Older</a>` : ''}` : html`<p>Nothing delivered yet.</p>`}
</section>`,
  );
}

export function confirmDeleteEndpoint(ctx: PageContext, e: Endpoint): string {
  return page(
    'Delete a webhook endpoint',
    ctx,
    html`<p>Delete the endpoint <code>${e.url}</code> and its delivery log? Nothing more is sent to it.</p>
<form method="post" action="/dashboard/webhooks/${e.id}/delete">
  ${csrfField(ctx.csrf)}
  <button type="submit" class="danger">Delete the endpoint</button>
  <a href="/dashboard/webhooks/${e.id}">Cancel</a>
</form>`,
  );
}
