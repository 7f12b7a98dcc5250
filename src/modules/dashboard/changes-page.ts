// The dashboard's change feed: the account's feed (public events and its own alerts), oldest first.
import { CHANGE_TYPES, type PublishedChange } from '../../domain/changes.js';
import { html, notice, page, when, type PageContext } from './pages.js';

/** The filters as the form sent them (raw text, shown back in the form). */
export type ChangesForm = { since?: string; state?: string; types?: string[] };

/** What an event is about, in a line. */
function about(e: PublishedChange) {
  const values = (v: Record<string, unknown> | null) => (v ? Object.entries(v).map(([k, x]) => `${k}: ${typeof x === 'object' ? JSON.stringify(x) : String(x)}`).join(', ') : '');
  const parts = [];
  if (e.old || e.new) parts.push(html`${values(e.old) || '—'} → ${values(e.new) || '—'}`);
  if (e.relationship) parts.push(html`${e.relationship.relationship_type} under <code>${e.relationship.supervisor_license_number ?? e.relationship.supervisor_license_credential_id}</code> from ${e.relationship.effective_from}${e.relationship.effective_to ? ` to ${e.relationship.effective_to}` : ''}`);
  if (e.transfer) parts.push(html`from <code>${e.transfer.from.supervisor_license_number}</code> to <code>${e.transfer.to.supervisor_license_number}</code>`);
  if (e.bulk_move) parts.push(html`${e.bulk_move.moved} of ${e.bulk_move.roster_before} to <code>${e.bulk_move.to_supervisor_license_number}</code>`);
  if (e.alert?.path.length) parts.push(html`path: ${e.alert.path.map((p) => html`→ <code>${p.supervisor_license_number}</code> (${p.relationship_type}) `)}`);
  return parts.length ? html`${parts.map((p, i) => (i ? html`<br>${p}` : p))}` : '—';
}

export function changesPage(ctx: PageContext, form: ChangesForm, result: { rows: PublishedChange[]; next: string | null; more: boolean; query: string } | { error: string }): string {
  const query = 'query' in result ? result.query : '';
  const table =
    'rows' in result
      ? result.rows.length
        ? html`<table><caption>Changes, oldest first</caption><thead><tr><th scope="col">Detected</th><th scope="col">Event</th><th scope="col">Licence</th><th scope="col">What</th><th scope="col">Id</th></tr></thead><tbody>${result.rows.map(
            (e) =>
              html`<tr><td>${when(e.detected_at)}</td><td><code>${e.type}</code>${e.alert ? html`<br><small>for your watchlist</small>` : ''}</td><td>${e.state}${e.license_number ? html` <code>${e.license_number}</code>` : ''}</td><td>${about(e)}</td><td><code>${e.id}</code></td></tr>`,
          )}</tbody></table>${result.more && result.next ? html`<p><a href="/dashboard/changes?${query ? `${query}&` : ''}cursor=${encodeURIComponent(result.next)}">Newer changes</a></p>` : ''}`
        : html`<p>No changes match.</p>`
      : notice(result.error);
  return page(
    'Changes',
    ctx,
    html`<p>What state refreshes changed, and the alerts derived for your watchlist alone (marked "for your watchlist"). The API serves the same feed at <code>/api/v1/licensees/changes</code>; <a href="/dashboard/monitoring">Monitoring</a> sends it to your webhooks.</p>
<form method="get" action="/dashboard/changes" class="filters">
  <div class="field"><label for="since">Since (date)</label><input id="since" name="since" type="date" value="${form.since ?? ''}"></div>
  <div class="field"><label for="state">State</label><input id="state" name="state" type="text" value="${form.state ?? ''}" aria-describedby="state-hint"><p class="hint" id="state-hint">Two letters, such as TX</p></div>
  <fieldset><legend>Event types (none ticked: all)</legend>${CHANGE_TYPES.map((t) => html`<label class="check"><input type="checkbox" name="types" value="${t}"${form.types?.includes(t) ? ' checked' : ''}> ${t}</label>`)}</fieldset>
  <button type="submit">Show</button>
</form>
${table}`,
  );
}
