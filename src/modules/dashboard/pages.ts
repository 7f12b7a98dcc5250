// The dashboard's pages, rendered on the server: plain forms, no inline script or style (the
// CSP allows only this service's own files), a chart drawn as SVG.

/** HTML-escaped text; Html values pass through. */
class Html {
  constructor(readonly text: string) {}
  toString() {
    return this.text;
  }
}
const escape = (v: unknown) => String(v).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** A template whose interpolations are escaped unless they are Html (arrays are joined). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  const out = strings.reduce((acc, s, i) => {
    const v = i === 0 ? '' : values[i - 1];
    const text = Array.isArray(v) ? v.map((x) => (x instanceof Html ? x.text : escape(x))).join('') : v instanceof Html ? v.text : v == null || v === false ? '' : escape(v);
    return acc + text + s;
  }, '');
  return new Html(out);
}

export interface PageContext {
  csrf: string;
  /** The signed-in account's e-mail, for the header's sign-out form. */
  signedInAs?: string;
}

export const csrfField = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;

export function page(title: string, ctx: PageContext, body: Html): string {
  return `<!doctype html>${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Licensee Verification Service</title>
<link rel="icon" href="/dashboard/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
<script src="/dashboard/assets/dashboard.js" defer></script>
</head>
<body>
<header>
  <a class="brand" href="/dashboard">Licensee Verification Service</a>
  ${ctx.signedInAs ? html`<nav aria-label="Dashboard"><a href="/dashboard">Account</a> <a href="/dashboard/monitoring">Monitoring</a> <a href="/dashboard/changes">Changes</a> <a href="/dashboard/verifications">Verifications</a> <a href="/dashboard/reviews">Reviews</a> <a href="/dashboard/jobs">Roster jobs</a></nav><form method="post" action="/dashboard/sign-out" class="inline">${csrfField(ctx.csrf)}<span>${ctx.signedInAs}</span> <button type="submit">Sign out</button></form>` : html`<nav><a href="/dashboard/sign-in">Sign in</a> <a href="/dashboard/sign-up">Sign up</a></nav>`}
</header>
<main>
<h1>${title}</h1>
${body}
</main>
<footer><a href="/docs">API documentation</a></footer>
</body>
</html>`}`;
}

export const notice = (message?: string, kind: 'error' | 'info' = 'error') => (message ? html`<p class="${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${message}</p>` : '');

export function emailForm(kind: 'sign-up' | 'sign-in', ctx: PageContext, state: { error?: string; info?: string; email?: string; off?: boolean }): string {
  const title = kind === 'sign-up' ? 'Create a free account' : 'Sign in';
  const body = state.off
    ? html`<p class="error" role="alert">Sign-up and sign-in by e-mail are off: this deployment has no mail server configured. Ask its operator for a key.</p>`
    : html`${notice(state.error)}${notice(state.info, 'info')}
<p>${kind === 'sign-up' ? 'Enter your e-mail address. We send you a link: opening it creates your free account (25 lookups a month, no payment card).' : 'Enter the e-mail address of your account. We send you a link that signs you in.'}</p>
<form method="post" action="/dashboard/${kind}">
  ${csrfField(ctx.csrf)}
  <label for="email">E-mail address</label>
  <input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${state.email ?? ''}">
  <button type="submit">${kind === 'sign-up' ? 'Send me a link' : 'Send me a sign-in link'}</button>
</form>
<p>${kind === 'sign-up' ? html`Already have an account? <a href="/dashboard/sign-in">Sign in</a>.` : html`No account yet? <a href="/dashboard/sign-up">Sign up</a>.`}</p>`;
  return page(title, ctx, body);
}

export function checkEmail(ctx: PageContext, email: string, kind: 'sign-up' | 'sign-in'): string {
  return page(
    'Check your e-mail',
    ctx,
    html`<p role="status">If <strong>${email}</strong> can be used, a message with a link is on its way. The link works once, for 24 hours.</p>
<form method="post" action="/dashboard/resend">
  ${csrfField(ctx.csrf)}
  <input type="hidden" name="email" value="${email}">
  <input type="hidden" name="kind" value="${kind}">
  <p>Nothing arrived after a few minutes? Check your spam folder, or <button type="submit" class="link">send it again</button>.</p>
</form>`,
  );
}

/** The page a link opens: it names the account it signs in to, and the one it would replace. */
export function confirmLink(ctx: PageContext, token: string, link: { state: 'valid' | 'expired' | 'used' | 'unknown'; email?: string; purpose?: 'verify' | 'sign_in' }): string {
  const { state, email } = link;
  if (state !== 'valid') {
    const why = state === 'expired' ? 'This link has expired.' : state === 'used' ? 'This link has been used already.' : 'This link is not valid.';
    return page('Link not valid', ctx, html`<p class="error" role="alert">${why} Links work once, for 24 hours.</p><p><a href="/dashboard/sign-in">Ask for a new link</a>.</p>`);
  }
  return page(
    'Continue to your dashboard',
    ctx,
    html`<p>${link.purpose === 'verify' ? html`This link confirms <strong>${email}</strong> and signs you in to its account.` : html`This link signs you in as <strong>${email}</strong>.`}</p>
${ctx.signedInAs && ctx.signedInAs !== email ? html`<p class="info" role="status">You are signed in as <strong>${ctx.signedInAs}</strong>; this link signs you in as <strong>${email}</strong> instead.</p>` : ''}
<form method="post" action="/dashboard/link">
  ${csrfField(ctx.csrf)}
  <input type="hidden" name="token" value="${token}">
  <button type="submit">Continue</button>
</form>`,
  );
}

export function errorPage(ctx: PageContext, status: number, message: string): string {
  const title = status === 429 ? 'Too many requests' : status === 403 ? 'Form expired' : status === 401 ? 'Signed out' : status === 503 ? 'Not available' : status >= 500 ? 'Something went wrong' : 'That did not work';
  return page(title, ctx, html`<p class="error" role="alert">${message}</p><p><a href="/dashboard">Back to the dashboard</a></p>`);
}

interface KeyView {
  id: string;
  label: string | null;
  prefix: string;
  last_four: string;
  created_at: string;
  last_used_at: string | null;
}

export interface Overview {
  account: { email: string; plan: string; trial_plan: string | null; trial_ends_at: string | null };
  usage: { period: string; plan: string; quota: number; used: number; remaining: number; resets_at: string; by_endpoint: Record<string, number>; by_day: Record<string, number> };
  keys: KeyView[];
}

/** Calls per day of the month as an SVG bar chart, with a table of the same figures for screen readers. */
function usageChart(period: string, byDay: Record<string, number>) {
  const [year, month] = period.split('-').map(Number);
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const values = Array.from({ length: days }, (_, i) => byDay[`${period}-${String(i + 1).padStart(2, '0')}`] ?? 0);
  const max = Math.max(1, ...values);
  const w = 20;
  const h = 120;
  const bars = values.map((v, i) => {
    const bh = Math.round((v / max) * h);
    return html`<rect x="${i * w + 2}" y="${h - bh}" width="${w - 4}" height="${bh}"><title>${period}-${String(i + 1).padStart(2, '0')}: ${v}</title></rect>`;
  });
  const labels = [1, 8, 15, 22, days].map((d) => html`<text x="${(d - 1) * w + w / 2}" y="${h + 14}" text-anchor="middle">${d}</text>`);
  return html`<figure>
<svg class="chart" role="img" aria-labelledby="chart-title" viewBox="0 0 ${days * w} ${h + 18}" width="100%" height="160">
<title id="chart-title">Metered calls per day in ${period}, at most ${max} a day</title>
<g class="bars">${bars}</g><g class="axis">${labels}</g>
</svg>
<figcaption>Metered calls per day (UTC) in ${period}.</figcaption>
</figure>`;
}

/** A credential shown this once, with a copy button: `id` names the field, `use` says what it is for. */
export function shownOnce(id: string, heading: Html, use: Html, label: string, value: string) {
  return html`<section class="created" aria-labelledby="${id}-heading">
<h2 id="${id}-heading">${heading}</h2>
<p>Copy it now: it is shown only this once. ${use}</p>
<label for="${id}">${label}</label>
<input id="${id}" class="key" type="text" readonly value="${value}">
<button type="button" class="copy" data-copy="${id}">Copy</button> <span class="copied" role="status" aria-live="polite"></span>
</section>`;
}

export const when = (iso: string | null) => (iso ? iso.replace('T', ' ').slice(0, 16) + ' UTC' : 'never');

export function accountPage(ctx: PageContext, o: Overview, extra: { createdKey?: { key: string; label: string | null }; info?: string; error?: string }): string {
  const u = o.usage;
  const trial = o.account.trial_plan ? html`<dt>Trial</dt><dd>${o.account.trial_plan} until ${when(o.account.trial_ends_at)}</dd>` : '';
  const endpoints = Object.entries(u.by_endpoint).sort(([a], [b]) => a.localeCompare(b));
  const created = extra.createdKey
    ? shownOnce('raw-key', html`Your new key${extra.createdKey.label ? html` “${extra.createdKey.label}”` : ''}`, html`Send it as <code>Authorization: Bearer &lt;key&gt;</code>.`, 'API key', extra.createdKey.key)
    : '';
  const keys = o.keys.length
    ? html`<table><caption>Active keys</caption><thead><tr><th scope="col">Label</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${o.keys.map(
        (k) =>
          html`<tr><td>${k.label ?? '(no label)'}</td><td><code>${k.prefix}…${k.last_four}</code></td><td>${when(k.created_at)}</td><td>${when(k.last_used_at)}</td><td><a href="/dashboard/keys/${k.id}/revoke">Revoke<span class="visually-hidden"> key ending ${k.last_four}</span></a></td></tr>`,
      )}</tbody></table>`
    : html`<p class="info" role="status">This account has no working key. Create one to call the API.</p>`;
  return page(
    'Your account',
    ctx,
    html`${notice(extra.error)}${notice(extra.info, 'info')}${created}
<section aria-labelledby="plan">
<h2 id="plan">Plan and quota</h2>
<dl>
<dt>Plan</dt><dd>${u.plan}</dd>${trial}
<dt>This month (${u.period})</dt><dd>${u.used} of ${u.quota} lookups used, ${u.remaining} left</dd>
<dt>Quota resets</dt><dd>${when(u.resets_at)}</dd>
</dl>
</section>
<section aria-labelledby="usage">
<h2 id="usage">Usage</h2>
${usageChart(u.period, u.by_day)}
${endpoints.length ? html`<table><caption>Calls this month by endpoint</caption><thead><tr><th scope="col">Endpoint</th><th scope="col">Calls</th></tr></thead><tbody>${endpoints.map(([e, n]) => html`<tr><td><code>${e}</code></td><td>${n}</td></tr>`)}</tbody></table>` : html`<p>No metered calls this month yet.</p>`}
</section>
<section aria-labelledby="keys">
<h2 id="keys">API keys</h2>
${keys}
<form method="post" action="/dashboard/keys">
  ${csrfField(ctx.csrf)}
  <label for="label">Label for a new key (optional)</label>
  <input id="label" name="label" type="text" maxlength="100">
  <button type="submit">Create a key</button>
</form>
</section>`,
  );
}

export function confirmRevoke(ctx: PageContext, key: KeyView, last: boolean): string {
  return page(
    'Revoke a key',
    ctx,
    html`<p>Revoke the key <code>${key.prefix}…${key.last_four}</code>${key.label ? html` (“${key.label}”)` : ''}? Calls with it will be refused at once.</p>
${last ? html`<p class="error" role="alert">This is the account’s only key: once it is revoked the account has no working key until you create another.</p>` : ''}
<form method="post" action="/dashboard/keys/${key.id}/revoke">
  ${csrfField(ctx.csrf)}
  <button type="submit" class="danger">Revoke the key</button>
  <a href="/dashboard">Cancel</a>
</form>`,
  );
}
