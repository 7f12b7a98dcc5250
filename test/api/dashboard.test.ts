import { createHash, randomUUID } from 'node:crypto';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';
import type { App } from 'supertest/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { noMailer, smtpMailer } from '../../src/mail/nodemailer.js';
import { VerifyResponse } from '../../src/modules/licensees/licensees.schemas.js';
import { LINK_REQUESTS_PER_ADDRESS, LINK_REQUESTS_PER_IP } from '../../src/modules/dashboard/dashboard.service.js';
import type { SqlStore } from '../../src/store/sql-store.js';
import { fixture, testApp, testGraph, testStore } from '../helpers/graph.js';
import { CSV_CORPUS } from '../helpers/broken-csv.js';
import { body } from '../helpers/http.js';
import { binary, pdfText } from '../helpers/pdf.js';
import { testSmtpServer } from '../helpers/smtp.js';

// The dashboard as a client without a browser uses it: forms, cookies, the e-mail over real SMTP.
// The browser test (test/browser/dashboard.test.ts) walks the same path in Chromium.
const BASE = 'http://lvs.example.test';
const VERIFY = '/api/v1/licensees/verify?state=TX&license_number=763827-SA';
const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
const tokenOf = (html: string) => /name="token" value="([^"]+)"/.exec(html)?.[1] ?? '';
/** The page with its CSRF tokens left out: what a visitor sees. */
const visible = (html: string) => html.replace(/value="[^"]*"/g, '');
const rawKeyOf = (html: string) => /id="raw-key"[^>]*value="(lvs_live_[\w-]+)"/.exec(html)?.[1];
const secretOf = (html: string) => /id="raw-secret"[^>]*value="(whsec_[^"]+)"/.exec(html)?.[1];
const sessionCookieOf = (res: { headers: Record<string, unknown> }) => ((res.headers['set-cookie'] as string[] | undefined) ?? []).find((c) => c.startsWith('lvs_session='))?.split(';')[0];

describe('the dashboard', () => {
  let graph: GraphAdapters;
  let store: SqlStore;
  let side: Awaited<ReturnType<typeof testStore>>;
  let smtp: Awaited<ReturnType<typeof testSmtpServer>>;
  let app: App;
  beforeAll(async () => {
    ({ graph } = await testGraph(fixture('small')));
    side = await testStore();
    store = side.store;
    smtp = await testSmtpServer();
    // Behind a proxy that names the client: each visitor below comes from an address of its own.
    app = testApp(graph, side, { TRUST_PROXY: true }, { mailer: smtpMailer(smtp.url, 'LVS <no-reply@example.test>'), publicBaseUrl: BASE }) as unknown as App;
  });
  afterAll(async () => {
    await smtp?.close();
    await graph?.close();
    await store?.close();
  });

  /** Posts a form of the page at `from` (its CSRF token included) as `agent`. */
  async function submit(agent: TestAgent, from: string, action: string, fields: Record<string, string>) {
    const page = await agent.get(from);
    return agent.post(action).type('form').send({ ...fields, _csrf: csrfOf(page.text) });
  }
  /** A form's answer that redirects after POST (303 to `to`): the page it leads to, read by the same visitor. */
  async function redirected(agent: TestAgent, res: { status: number; headers: Record<string, unknown> }, to: string) {
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(to);
    const page = await agent.get(to);
    expect(page.status).toBe(200);
    return page;
  }

  let visitors = 0;
  /** Asks for a link as a new visitor (from `ip`, else an address of its own); returns the visitor, the page and the mail. */
  async function askLink(kind: 'sign-up' | 'sign-in', email: string, ip = `10.0.${Math.floor(++visitors / 250)}.${visitors % 250}`) {
    const agent = request.agent(app).set('X-Forwarded-For', ip);
    const before = smtp.received.length;
    const res = await submit(agent, `/dashboard/${kind}`, `/dashboard/${kind}`, { email });
    return { agent, res, mail: res.status === 200 ? await smtp.next(email, before) : undefined };
  }

  /** Signs up `email` and opens the link: a signed-in visitor. */
  async function signUp(email: string) {
    const { agent, mail } = await askLink('sign-up', email);
    const path = mail!.link!.slice(BASE.length);
    const confirm = await agent.get(path);
    const done = await agent.post('/dashboard/link').type('form').send({ token: tokenOf(confirm.text), _csrf: csrfOf(confirm.text) });
    return { agent, done, mail: mail! };
  }

  it('when a person signs up, opens the link, makes a key and calls the API then the dashboard shows the account, the key and the usage', async () => {
    const home = await request(app).get('/dashboard');
    expect(home.status).toBe(303);
    expect(home.headers.location).toBe('/dashboard/sign-in');

    const { agent, res, mail } = await askLink('sign-up', 'new.person@example.com');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/Check your e-mail/);
    expect(mail!.subject).toMatch(/Confirm your e-mail/);
    expect(mail!.link).toMatch(new RegExp(`^${BASE}/dashboard/link\\?token=[\\w-]{43}$`));
    // Nothing exists until the address is verified; the token is stored only as its hash.
    expect(await store.query('SELECT 1 FROM accounts WHERE email = $1', ['new.person@example.com'])).toEqual([]);
    const token = decodeURIComponent(mail!.link!.split('token=')[1]);
    const links = await store.query<{ token_hash: string; purpose: string }>('SELECT token_hash, purpose FROM email_links WHERE email = $1', ['new.person@example.com']);
    expect(links).toHaveLength(1);
    expect(links[0].token_hash).not.toContain(token);
    expect(links[0].token_hash).toMatch(/^[0-9a-f]{64}$/);

    // Opening the link asks to confirm (a mail scanner's GET uses nothing), then signs in.
    const confirm = await agent.get(mail!.link!.slice(BASE.length));
    expect(confirm.status).toBe(200);
    expect(confirm.text).toMatch(/Continue/);
    expect(confirm.text).toContain('This link confirms <strong>new.person@example.com</strong>');
    const done = await agent.post('/dashboard/link').type('form').send({ token: tokenOf(confirm.text), _csrf: csrfOf(confirm.text) });
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe('/dashboard');
    const cookie = (done.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('lvs_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/dashboard/);
    expect(cookie).not.toMatch(/Secure/);
    const [account] = await store.query<{ id: string; plan: string }>('SELECT id, plan FROM accounts WHERE email = $1', ['new.person@example.com']);
    expect(account.plan).toBe('free');

    const page = await agent.get('/dashboard');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/Your account/);
    expect(page.text).toMatch(/no working key/);
    expect(page.text).toMatch(/0 of 25 lookups used, 25 left/);

    const created = await submit(agent, '/dashboard', '/dashboard/keys', { label: 'key A' });
    expect(created.status).toBe(303);
    const shown = await agent.get(created.headers.location);
    const key = rawKeyOf(shown.text);
    expect(key).toBeTruthy();
    expect(shown.text).toMatch(/shown only this once/);
    body(await request(app).get(VERIFY).set('Authorization', `Bearer ${key}`), VerifyResponse);

    await side.meter.flush();
    const after = await agent.get('/dashboard');
    expect(after.text).toMatch(/1 of 25 lookups used, 24 left/);
    expect(after.text).toMatch(/<code>verifyLicense<\/code><\/td><td>1</);
    expect(after.text).toMatch(new RegExp(`<title>${new Date().toISOString().slice(0, 10)}: 1</title>`));
    expect(after.text).toContain(`…${key!.slice(-4)}`);
    expect(after.text).not.toContain(key);

    const out = await submit(agent, '/dashboard', '/dashboard/sign-out', {});
    expect(out.status).toBe(303);
    expect(await store.query('SELECT 1 FROM sessions WHERE account_id = $1', [account.id])).toEqual([]);
    expect((await agent.get('/dashboard')).headers.location).toBe('/dashboard/sign-in');
  });

  it('when every dashboard page is served then it carries a strict CSP, no-store, and no Bearer challenge', async () => {
    for (const path of ['/dashboard/sign-up', '/dashboard/sign-in', '/dashboard/link?token=nope']) {
      const res = await request(app).get(path);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
      expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
      expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      expect(res.headers['content-security-policy']).not.toMatch(/unsafe-inline/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['www-authenticate']).toBeUndefined();
    }
  });

  it('when an address with an account signs up again, or one without signs in, then the page is the same and the e-mail says what applies', async () => {
    await signUp('known@example.com');
    const again = await askLink('sign-up', 'known@example.com');
    const fresh = await askLink('sign-up', 'unknown-1@example.com');
    expect(visible(again.res.text).replace(/known@example\.com/g, 'X')).toBe(visible(fresh.res.text).replace(/unknown-1@example\.com/g, 'X'));
    expect(again.mail!.subject).toMatch(/Sign in/);
    expect(again.mail!.text).toMatch(/already has an account/);

    const signInUnknown = await askLink('sign-in', 'nobody@example.com');
    const signInKnown = await askLink('sign-in', 'known@example.com');
    expect(visible(signInUnknown.res.text).replace(/nobody@example\.com/g, 'X')).toBe(visible(signInKnown.res.text).replace(/known@example\.com/g, 'X'));
    expect(signInUnknown.mail!.text).toMatch(/has no account/);
    expect(signInUnknown.mail!.link).toBe(`${BASE}/dashboard/sign-up`);
    expect(await store.query('SELECT 1 FROM email_links WHERE email = $1', ['nobody@example.com'])).toEqual([]);
  });

  it('when an account made by the operator signs in then its link opens its dashboard with its key', async () => {
    const made = await side.accounts.createAccount({ email: 'operator-made@example.com', plan: 'growth' });
    const { agent, mail } = await askLink('sign-in', 'operator-made@example.com');
    const confirm = await agent.get(mail!.link!.slice(BASE.length));
    await agent.post('/dashboard/link').type('form').send({ token: tokenOf(confirm.text), _csrf: csrfOf(confirm.text) });
    const page = await agent.get('/dashboard');
    expect(page.text).toMatch(/<dt>Plan<\/dt><dd>growth<\/dd>/);
    expect(page.text).toContain(`…${made.key.last_four}`);
  });

  it('when a link is used twice, or after it expired, then it says so and signs nobody in', async () => {
    const { agent, mail } = await askLink('sign-up', 'twice@example.com');
    const path = mail!.link!.slice(BASE.length);
    const confirm = await agent.get(path);
    const form = { token: tokenOf(confirm.text), _csrf: csrfOf(confirm.text) };
    expect((await agent.post('/dashboard/link').type('form').send(form)).status).toBe(303);
    const reused = await request.agent(app).get(path);
    expect(reused.status).toBe(400);
    expect(reused.text).toMatch(/used already/);
    const other = request.agent(app);
    const page = await other.get('/dashboard/sign-in');
    const second = await other.post('/dashboard/link').type('form').send({ token: form.token, _csrf: csrfOf(page.text) });
    expect(second.status).toBe(400);
    expect(second.text).toMatch(/used already/);
    expect(second.headers['set-cookie']?.toString() ?? '').not.toMatch(/lvs_session=[^;]/);

    const late = await askLink('sign-up', 'late@example.com');
    await store.query("UPDATE email_links SET expires_at = now() - interval '1 minute' WHERE email = $1", ['late@example.com']);
    const expired = await late.agent.get(late.mail!.link!.slice(BASE.length));
    expect(expired.status).toBe(400);
    expect(expired.text).toMatch(/expired/);
    expect(await store.query('SELECT 1 FROM accounts WHERE email = $1', ['late@example.com'])).toEqual([]);
  });

  it('when a form comes without its CSRF token, or with another visitor\'s, then 403 and nothing changes', async () => {
    const before = smtp.received.length;
    const bare = await request(app).post('/dashboard/sign-up').type('form').send({ email: 'csrf@example.com' });
    expect(bare.status).toBe(403);
    expect(bare.text).toMatch(/form has expired/);
    const stranger = request.agent(app);
    const page = await stranger.get('/dashboard/sign-up');
    const forged = await request.agent(app).post('/dashboard/sign-up').type('form').send({ email: 'csrf@example.com', _csrf: csrfOf(page.text) });
    expect(forged.status).toBe(403);
    expect(smtp.received.length).toBe(before);
    expect(await store.query('SELECT 1 FROM email_links WHERE email = $1', ['csrf@example.com'])).toEqual([]);

    const { agent } = await signUp('csrf-keys@example.com');
    const keys = await agent.post('/dashboard/keys').type('form').send({ label: 'x' });
    expect(keys.status).toBe(403);
    expect(await store.query("SELECT 1 FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE a.email = 'csrf-keys@example.com'")).toEqual([]);
  });

  it('when the address is not one then the form says so and sends nothing', async () => {
    const before = smtp.received.length;
    const { res } = await askLink('sign-up', 'not-an-address');
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/enter an e-mail address/);
    expect(res.text).toMatch(/value="not-an-address"/);
    expect(smtp.received.length).toBe(before);
  });

  it('when an address reached its limit then a list with it is refused, a +tag shares its limit, and a name before another address is refused, with no mail', async () => {
    /** Asks for a sign-up link as a new visitor, without waiting for mail. */
    const ask = (email: string) => submit(request.agent(app).set('X-Forwarded-For', `10.9.0.${++visitors % 250}`), '/dashboard/sign-up', '/dashboard/sign-up', { email });
    for (let i = 0; i < LINK_REQUESTS_PER_ADDRESS; i++) expect((await askLink('sign-up', 'newcomer@example.com')).res.status).toBe(200);
    // Mail is handed to the SMTP server before the page answers: a count taken now is final.
    const before = smtp.received.length;
    for (const email of ['newcomer@example.com;1', 'newcomer@example.com;2']) {
      const res = await ask(email);
      expect(res.status, email).toBe(400);
      expect(res.text).toMatch(/enter one e-mail address, such as name@example.com/);
    }
    const tagged = await ask('newcomer+x@example.com');
    expect(tagged.status).toBe(429);
    expect(tagged.text).toMatch(/too many requests for a link for this address/);
    const hidden = await ask('x<attacker@evil.io>');
    expect(hidden.status).toBe(400);
    expect(hidden.text).toMatch(/enter the address alone, such as name@example.com/);
    expect(smtp.received.slice(before)).toEqual([]);
    expect(smtp.received.filter((m) => m.to === 'newcomer@example.com')).toHaveLength(LINK_REQUESTS_PER_ADDRESS);
    expect(await store.query("SELECT email FROM email_links WHERE email LIKE '%evil%' OR email LIKE '%;%' OR email LIKE 'newcomer+%'")).toEqual([]);
  });

  it('when an address has an IDN domain or capitals then the link goes to its lower-case punycode form', async () => {
    const before = smtp.received.length;
    const res = await submit(request.agent(app).set('X-Forwarded-For', '10.9.1.1'), '/dashboard/sign-up', '/dashboard/sign-up', { email: 'Someone@BÜCHER.example' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('someone@xn--bcher-kva.example');
    // The test server (smtp-server) reports a recipient's domain decoded from punycode.
    expect((await smtp.next('someone@bücher.example', before)).subject).toMatch(/Confirm your e-mail/);
    expect(await store.query('SELECT email FROM email_links WHERE email LIKE $1', ['someone@%'])).toEqual([{ email: 'someone@xn--bcher-kva.example' }]);
  });

  it('when an address asks for links too often then 429 with Retry-After, and no more mail goes out', async () => {
    for (let i = 0; i < LINK_REQUESTS_PER_ADDRESS; i++) expect((await askLink('sign-in', 'busy@example.com')).res.status).toBe(200);
    const before = smtp.received.length;
    const { res } = await askLink('sign-in', 'busy@example.com');
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(res.text).toMatch(/too many requests/);
    expect(smtp.received.length).toBe(before);
  });

  it('when one client asks for links for many addresses then 429 with Retry-After once it passes the limit', async () => {
    for (let i = 0; i < LINK_REQUESTS_PER_IP; i++) expect((await askLink('sign-up', `many-${i}@example.com`, '192.0.2.7')).res.status).toBe(200);
    const before = smtp.received.length;
    const { res } = await askLink('sign-up', 'one-more@example.com', '192.0.2.7');
    expect(res.status).toBe(429);
    expect(res.text).toMatch(/from your network/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(smtp.received.length).toBe(before);
    // Another client is not held back.
    expect((await askLink('sign-up', 'one-more@example.com', '192.0.2.8')).res.status).toBe(200);
  });

  it('when the session is gone then pages send to sign-in and forms change nothing', async () => {
    const { agent } = await signUp('stale@example.com');
    const page = await agent.get('/dashboard');
    await store.query("DELETE FROM sessions WHERE account_id = (SELECT id FROM accounts WHERE email = 'stale@example.com')");
    const keys = await agent.post('/dashboard/keys').type('form').send({ label: 'late', _csrf: csrfOf(page.text) });
    expect(keys.status).toBe(401);
    expect(keys.text).toMatch(/session has ended/);
    expect(keys.headers['www-authenticate']).toBeUndefined();
    expect(await store.query("SELECT 1 FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE a.email = 'stale@example.com'")).toEqual([]);
    const home = await agent.get('/dashboard');
    expect(home.status).toBe(303);
    expect(home.headers.location).toBe('/dashboard/sign-in?ended=1');
  });

  it('when the dashboard revokes the last key then the page says there is no working key and the API refuses it', async () => {
    const { agent } = await signUp('revoker@example.com');
    const created = await submit(agent, '/dashboard', '/dashboard/keys', { label: 'only' });
    const key = rawKeyOf((await agent.get(created.headers.location)).text)!;
    const [row] = await store.query<{ id: string }>("SELECT k.id FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE a.email = 'revoker@example.com'");
    const confirm = await agent.get(`/dashboard/keys/${row.id}/revoke`);
    expect(confirm.text).toMatch(/only key/);
    const revoked = await agent.post(`/dashboard/keys/${row.id}/revoke`).type('form').send({ _csrf: csrfOf(confirm.text) });
    expect(revoked.status).toBe(303);
    const page = await agent.get(revoked.headers.location);
    expect(page.text).toMatch(new RegExp(`key ending ${key.slice(-4)} is revoked`));
    expect(page.text).toMatch(/no working key/);
    expect((await request(app).get(VERIFY).set('Authorization', `Bearer ${key}`)).status).toBe(401);
    expect((await agent.get('/dashboard/keys/00000000-0000-0000-0000-000000000000/revoke')).status).toBe(404);
  });

  it('when links are mailed then they start with PUBLIC_BASE_URL whatever Host the request named', async () => {
    const agent = request.agent(app);
    const page = await agent.get('/dashboard/sign-up');
    const before = smtp.received.length;
    await agent.post('/dashboard/sign-up').set('Host', 'evil.example').set('X-Forwarded-Host', 'evil.example').type('form').send({ email: 'host@example.com', _csrf: csrfOf(page.text) });
    const mail = await smtp.next('host@example.com', before);
    expect(mail.link!.startsWith(`${BASE}/dashboard/link?token=`)).toBe(true);
    expect(mail.text).not.toMatch(/evil/);
  });

  it('when a key is made then the form redirects to a page that shows it once, and reloading that page shows and makes nothing', async () => {
    const { agent } = await signUp('prg-keys@example.com');
    const keysOf = () => store.query("SELECT k.label FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE a.email = 'prg-keys@example.com' AND k.revoked_at IS NULL");
    const created = await submit(agent, '/dashboard', '/dashboard/keys', { label: 'once' });
    expect(created.status).toBe(303);
    expect(created.headers.location).toBe('/dashboard');
    expect(created.text).not.toMatch(/lvs_live_/);
    // Until it is shown the key waits in the side store, sealed with the session: never in clear.
    const waiting = await store.query<{ payload: string }>('SELECT payload FROM dashboard_flash');
    expect(waiting.length).toBeGreaterThan(0);
    expect(JSON.stringify(waiting)).not.toMatch(/lvs_live_|once/);

    const shown = await agent.get('/dashboard');
    expect(shown.status).toBe(200);
    const key = rawKeyOf(shown.text);
    expect(key).toMatch(/^lvs_live_/);
    expect(visible(shown.text)).toContain('Your new key “once”');
    body(await request(app).get(VERIFY).set('Authorization', `Bearer ${key}`), VerifyResponse);
    const reloaded = await agent.get('/dashboard');
    expect(reloaded.status).toBe(200);
    expect(reloaded.text).not.toContain(key);
    expect(reloaded.text).not.toMatch(/shown only this once/);
    expect(await keysOf()).toEqual([{ label: 'once' }]);

    // A bad label is still answered on the form itself, and makes nothing.
    const bad = await submit(agent, '/dashboard', '/dashboard/keys', { label: 'x'.repeat(101) });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('a label is at most 100 characters');
    expect(await keysOf()).toHaveLength(1);
  });

  it('when a link is opened then its page names the account, and one opened while signed in as another says so and ends the old session', async () => {
    const a = await signUp('switch-a@example.com');
    const aCookie = sessionCookieOf(a.done)!;
    expect(aCookie).toMatch(/^lvs_session=./);
    // A key made and not yet shown waits for this session; it goes when the session does.
    await submit(a.agent, '/dashboard', '/dashboard/keys', { label: 'pending' });
    const aHash = createHash('sha256').update(decodeURIComponent(aCookie.slice('lvs_session='.length))).digest('hex');
    expect(await store.query('SELECT 1 FROM dashboard_flash WHERE session_hash = $1', [aHash])).toHaveLength(1);
    await signUp('switch-b@example.com');
    const { mail } = await askLink('sign-in', 'switch-b@example.com');
    const path = mail!.link!.slice(BASE.length);
    expect((await request(app).get(path)).text).toContain('This link signs you in as <strong>switch-b@example.com</strong>.');

    const confirm = await a.agent.get(path);
    expect(confirm.status).toBe(200);
    expect(visible(confirm.text)).toContain('You are signed in as <strong>switch-a@example.com</strong>; this link signs you in as <strong>switch-b@example.com</strong> instead.');
    const done = await a.agent.post('/dashboard/link').type('form').send({ token: tokenOf(confirm.text), _csrf: csrfOf(confirm.text) });
    expect(done.status).toBe(303);
    const bCookie = sessionCookieOf(done)!;
    expect(bCookie).not.toBe(aCookie);

    // The replaced session is over: its cookie opens nothing, and forms with it change nothing.
    const old = await request(app).get('/dashboard').set('Cookie', aCookie);
    expect(old.status).toBe(303);
    expect(old.headers.location).toBe('/dashboard/sign-in?ended=1');
    expect(await store.query("SELECT 1 FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE a.email = 'switch-a@example.com'")).toEqual([]);
    expect(await store.query('SELECT 1 FROM dashboard_flash WHERE session_hash = $1', [aHash])).toEqual([]);
    const now = await a.agent.get('/dashboard');
    expect(now.status).toBe(200);
    expect(now.text).toContain('<span>switch-b@example.com</span>');
    expect(now.text).not.toContain('switch-a@example.com');

    // A second link for the same account also replaces the session it is opened in.
    const again = await askLink('sign-in', 'switch-b@example.com');
    const page = await a.agent.get(again.mail!.link!.slice(BASE.length));
    expect(visible(page.text)).not.toContain('instead');
    const renewed = await a.agent.post('/dashboard/link').type('form').send({ token: tokenOf(page.text), _csrf: csrfOf(page.text) });
    expect(renewed.status).toBe(303);
    expect((await request(app).get('/dashboard').set('Cookie', bCookie)).status).toBe(303);
    expect((await a.agent.get('/dashboard')).status).toBe(200);
  });

  it('when /api/v1 is called with the dashboard\'s cookie and no key then 401: cookies never stand for a key', async () => {
    const { agent } = await signUp('cookie-api@example.com');
    const res = await agent.get(VERIFY);
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/json/);
  });

  it('when no mail server is configured then the pages say sign-up is off and a request changes nothing', async () => {
    const off = request.agent(testApp(graph, side, {}, { mailer: noMailer, publicBaseUrl: BASE }) as unknown as App);
    const page = await off.get('/dashboard/sign-up');
    expect(page.text).toMatch(/no mail server configured/);
    expect(page.text).not.toMatch(/<form method="post" action="\/dashboard\/sign-up"/);
    // The page has no form to send; a request made anyway is refused.
    const res = await off.post('/dashboard/sign-up').type('form').send({ email: 'off@example.com', _csrf: csrfOf(page.text) });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await store.query('SELECT 1 FROM email_links WHERE email = $1', ['off@example.com'])).toEqual([]);
  });

  it('when PUBLIC_BASE_URL is https then the session cookie is Secure', async () => {
    const tls = request.agent(testApp(graph, side, {}, { mailer: smtpMailer(smtp.url, 'LVS <no-reply@example.test>'), publicBaseUrl: 'https://lvs.example.test' }) as unknown as App);
    const page = await tls.get('/dashboard/sign-up');
    expect((page.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('lvs_csrf='))).toMatch(/Secure/);
  });

  describe('monitoring pages', () => {
    const upload = async (agent: TestAgent, csv: string | Buffer | null, csrf?: string) => {
      const page = await agent.get('/dashboard/monitoring');
      const post = agent.post('/dashboard/watchlist/upload').field('_csrf', csrf ?? csrfOf(page.text));
      return csv === null ? post : post.attach('file', Buffer.from(csv), { filename: 'watch.csv', contentType: 'text/csv' });
    };
    const watched = async (email: string) =>
      (await store.query<{ n: string }>('SELECT state || \' \' || license_number AS n FROM watched_licences w JOIN accounts a ON a.id = w.account_id WHERE a.email = $1 ORDER BY 1', [email])).map((r) => r.n);
    /** An event for TX is published: followers' endpoints get a delivery waiting (no dispatcher runs here). */
    const publishTxChange = async () => {
      const runId = crypto.randomUUID();
      const at = new Date().toISOString();
      await side.changes.log.stage({ id: runId, source: 'tx-trec', state: 'TX', snapshot_date: at.slice(0, 10) }, [
        { type: 'status_changed', state: 'TX', license_number: '763827-SA', license_credential_id: null, old: { status: 'Active' }, new: { status: 'Inactive' }, relationship: null, snapshot_date: at.slice(0, 10), detected_at: at, source: 'tx-trec' },
      ]);
      await side.changes.log.commit(runId);
    };

    it('when a free account opens the jobs page then it says jobs need a paid plan before any upload; a paid one gets the form', async () => {
      const { agent } = await signUp('free-jobs@example.com');
      const free = await agent.get('/dashboard/jobs');
      expect(free.status).toBe(200);
      expect(free.text).toMatch(/Roster jobs need a paid plan: the free plan does not include roster verification jobs/);
      expect(free.text).not.toContain('action="/dashboard/jobs"');
      await store.query("UPDATE accounts SET plan = 'starter' WHERE email = $1", ['free-jobs@example.com']);
      const paid = await agent.get('/dashboard/jobs');
      expect(paid.text).not.toContain('need a paid plan');
      expect(paid.text).toContain('action="/dashboard/jobs"');
    });

    it('when the changes page is opened then it shows the public events and this account\'s alerts, never another account\'s, with its filters', async () => {
      const { agent } = await signUp('feed-view@example.com');
      await signUp('feed-other@example.com');
      const accountOf = async (email: string) => (await store.query<{ id: string }>('SELECT id FROM accounts WHERE email = $1', [email]))[0].id;
      const at = new Date().toISOString();
      const event = (number: string) => ({ type: 'status_changed' as const, state: 'TX', license_number: number, license_credential_id: null, old: { status: 'Active' }, new: { status: 'Suspended' }, relationship: null, snapshot_date: at.slice(0, 10), detected_at: at, source: 'tx-trec' });
      const runId = randomUUID();
      await side.changes.log.stage({ id: runId, source: 'tx-trec', state: 'TX', snapshot_date: at.slice(0, 10) }, [event('77-B')]);
      await side.changes.log.commit(runId);
      // Alerts as a derivation writes them: one for each account.
      for (const [email, number] of [['feed-view@example.com', '77-SA'], ['feed-other@example.com', '88-SA']]) {
        await store.query(
          `INSERT INTO change_events (run_id, n, seq, type, state, license_number, new_values, account_id, dedupe_key, alert, snapshot_date, detected_at, source)
           VALUES ($1, $2, nextval('change_feed_seq'), 'supervisor_status_changed', 'TX', $3, '{"status":"Suspended"}', $4, $5, $6, $7::date, $8, 'tx-trec')`,
          [runId, number === '77-SA' ? 1 : 2, number, await accountOf(email), `k:${number}`, JSON.stringify({ key: `k:${number}`, path: [{ affiliate_license_credential_id: 'x', supervisor_license_credential_id: 'y', supervisor_license_number: '77-B', supervisor_full_name: null, relationship_type: 'sponsoring_broker', effective_from: '2020-01-01' }], cause_seqs: [] }), at.slice(0, 10), at],
        );
      }
      const page = await agent.get(`/dashboard/changes?since=${at.slice(0, 10)}&state=TX`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('<code>77-B</code>');
      expect(page.text).toContain('<code>77-SA</code>');
      expect(page.text).toContain('for your watchlist');
      expect(page.text).not.toContain('88-SA');
      // Without a date the page starts a week back, and says so in its form.
      const recent = await agent.get('/dashboard/changes');
      expect(recent.text).toContain('<code>77-SA</code>');
      const weekBack = (iso: string) => new Date(Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) - 7 * 86_400_000).toISOString().slice(0, 10);
      // (The day before the request or after it: the test may cross midnight.)
      expect([weekBack(at), weekBack(new Date().toISOString())]).toContain(/id="since" name="since" type="date" value="([\d-]+)"/.exec(recent.text)?.[1]);
      const onlyAlerts = await agent.get(`/dashboard/changes?since=${at.slice(0, 10)}&types=supervisor_status_changed`);
      expect(onlyAlerts.text).toContain('<code>77-SA</code>');
      expect(onlyAlerts.text).not.toContain('<code>status_changed</code>');
      const bad = await agent.get('/dashboard/changes?types=no_such_type');
      expect(bad.status).toBe(400);
      expect(bad.text).toContain('unknown event types no_such_type');
    });

    it('when consider answers wait then the review queue lists them oldest first, its form records a signed review by the signed-in user, and the history and PDF show it', async () => {
      const { agent } = await signUp('reviewer@example.com');
      const [{ id: accountId }] = await store.query<{ id: string }>('SELECT id FROM accounts WHERE email = $1', ['reviewer@example.com']);
      const api = request(app);
      const key = (await side.accounts.createKey(accountId, 'reviews')).key;
      const ids: string[] = [];
      for (const n of ['763827-SA', '763828-SA', '100001-B']) ids.push((await api.get(`/api/v1/licensees/verify?state=TX&license_number=${n}`).set('Authorization', `Bearer ${key}`)).headers['verification-id']);
      const queue = await agent.get('/dashboard/reviews');
      expect(queue.status).toBe(200);
      const listed = [...queue.text.matchAll(/name="id" value="([0-9a-f-]{36})"/g)].map((m) => m[1]);
      expect(listed).toEqual(ids.slice(0, 2));
      const empty = await agent.post('/dashboard/reviews').type('form').send({ id: ids[0], decision: 'accepted', reason: ' ', _csrf: csrfOf(queue.text) });
      expect(empty.status).toBe(400);
      expect(empty.text).toContain('reason: must not be empty');
      const done = await agent.post('/dashboard/reviews').type('form').send({ id: ids[0], decision: 'rejected', reason: 'probation: not placed', _csrf: csrfOf(queue.text) });
      const after = await redirected(agent, done, '/dashboard/reviews');
      expect(after.text).toContain('Review recorded: rejected.');
      expect([...after.text.matchAll(/name="id" value="([0-9a-f-]{36})"/g)].map((m) => m[1])).toEqual([ids[1]]);
      const record = (await api.get(`/api/v1/verifications/${ids[0]}`).set('Authorization', `Bearer ${key}`)).body.data;
      expect(record.reviews).toMatchObject([{ decision: 'rejected', reason: 'probation: not placed', reviewer: { type: 'dashboard_user', email: 'reviewer@example.com' } }]);
      expect((await agent.get('/dashboard/verifications')).text).toContain('rejected</span> by reviewer@example.com');
      const pdf = await agent.get(`/dashboard/verifications/${ids[0]}/certificate.pdf`).buffer(true).parse(binary);
      expect(pdf.status).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect((await pdfText(pdf.body as Buffer)).text).toContain('probation: not placed');
      // Another account's answer is not this one's to review.
      const { agent: stranger } = await signUp('stranger@example.com');
      const page = await stranger.get('/dashboard/reviews');
      const foreign = await stranger.post('/dashboard/reviews').type('form').send({ id: ids[1], decision: 'accepted', reason: 'x', _csrf: csrfOf(page.text) });
      expect(foreign.status).toBe(404);
      expect((await stranger.get(`/dashboard/verifications/${ids[1]}/certificate.pdf`)).status).toBe(404);
      expect((await api.get(`/api/v1/verifications/${ids[1]}`).set('Authorization', `Bearer ${key}`)).body.data.reviews).toEqual([]);
    });

    it('when the history filter or its CSV names a day outside the range then the page says so, never 503', async () => {
      const { agent } = await signUp('far-dates@example.com');
      for (const q of ['to=9999-12-31', 'from=0000-01-01']) {
        const page = await agent.get(`/dashboard/verifications?${q}`);
        expect(page.status, q).toBe(400);
        expect(page.text, q).toContain('must be a day from 1900-01-01 to 2999-12-31');
        const csv = await agent.get(`/dashboard/verifications.csv?${q}`);
        expect(csv.status, q).toBeGreaterThanOrEqual(400);
        expect(csv.status, q).toBeLessThan(500);
      }
    });

    it('when the watchlist and roster forms get broken or unusual files then each answers what is wrong, or reads them', async () => {
      const { agent } = await signUp('broken-files@example.com');
      await store.query("UPDATE accounts SET plan = 'growth' WHERE email = $1", ['broken-files@example.com']);
      const jobsPage = await agent.get('/dashboard/jobs');
      const uploadRoster = (bytes: Buffer) => agent.post('/dashboard/jobs').field('_csrf', csrfOf(jobsPage.text)).attach('file', bytes, { filename: 'roster.csv', contentType: 'text/csv' });
      const shown = (html: string) => html.replace(/&#34;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
      for (const c of CSV_CORPUS) {
        const roster = await uploadRoster(c.bytes);
        const watch = await upload(agent, c.bytes);
        if (c.error) {
          expect(roster.status, c.name).toBe(400);
          expect(shown(roster.text), c.name).toMatch(c.error.msg);
          expect(watch.status, c.name).toBe(400);
          if (c.error.type === 'csv_invalid') expect(shown(watch.text), c.name).toMatch(c.error.msg);
        } else {
          expect(roster.status, c.name).toBe(303);
          expect(roster.headers.location).toMatch(/^\/dashboard\/jobs\/[0-9a-f-]{36}$/);
          expect(watch.status, c.name).toBe(303);
        }
      }
      expect(await watched('broken-files@example.com')).toEqual(['TX 100001-B', 'TX 763827-SA', 'TX 763828-SA']);
    });

    it('when a CSV is uploaded then its good rows are watched, the bad ones named by line, and the plan limit holds', async () => {
      const { agent } = await signUp('uploader@example.com');
      const page = await agent.get('/dashboard/monitoring');
      expect(page.status).toBe(200);
      expect(page.text).toMatch(/0 of 25 watched/);
      const res = await redirected(agent, await upload(agent, 'State,License Number,note\nTX,763827-sa,mine\n\nfl,BK 123,\nTEXAS,1,x\nTX,,empty\nzz,1,unknown\n'), '/dashboard/monitoring');
      expect(visible(res.text)).toContain('2 licences added, 0 already watched; 2 of 25 watched now.');
      expect(res.text).toMatch(/3 lines were left out:<\/p><ul><li>line 5: &#34;TEXAS&#34; is not a two-letter state code<\/li><li>line 6: no licence number<\/li><li>line 7: &#34;zz&#34; is not the code of a U.S. jurisdiction<\/li>/);
      expect(await watched('uploader@example.com')).toEqual(['FL BK123', 'TX 763827-SA']);

      const tooMany = await upload(agent, `state,license_number\n${Array.from({ length: 24 }, (_, i) => `TX,UP-${i}`).join('\n')}\n`);
      expect(tooMany.status).toBe(402);
      expect(tooMany.text).toContain('the free plan watches at most 25 licences');
      expect(await watched('uploader@example.com')).toHaveLength(2);
      const unreadable = await upload(agent, 'name,number\nA,1\n');
      expect(unreadable.status).toBe(400);
      expect(unreadable.text).toContain('the first line must name the columns state and license_number');
      const none = await upload(agent, null);
      expect(none.status).toBe(400);
      expect(none.text).toContain('choose a CSV file to upload');
      const big = await upload(agent, `state,license_number\n${'TX,BIG\n'.repeat(200_000)}`);
      expect(big.status).toBe(413);
      expect(big.text).toContain('send one CSV file of at most 1 MB');
      // The token travels in the multipart body; without it nothing is read.
      const forged = await upload(agent, 'state,license_number\nTX,FORGED-1\n', 'not-a-token');
      expect(forged.status).toBe(403);
      expect(await watched('uploader@example.com')).toHaveLength(2);

      const removed = await redirected(agent, await submit(agent, '/dashboard/monitoring', '/dashboard/watchlist/remove', { state: 'FL', license_number: 'BK123' }), '/dashboard/monitoring');
      expect(visible(removed.text)).toContain('Stopped watching FL BK123.');
      expect(await watched('uploader@example.com')).toEqual(['TX 763827-SA']);
    });

    it('when states are followed and an endpoint is added, disabled, rotated, redelivered and deleted then each page shows it, the secret only once', async () => {
      const { agent } = await signUp('hooks.person@example.com');
      const following = await redirected(agent, await submit(agent, '/dashboard/monitoring', '/dashboard/states/follow', { state: 'tx' }), '/dashboard/monitoring');
      expect(visible(following.text)).toContain('Following TX.');
      const unknown = await submit(agent, '/dashboard/monitoring', '/dashboard/states/follow', { state: 'Texas' });
      expect(unknown.status).toBe(400);
      expect(visible(unknown.text)).toContain('use a state&#39;s two letters, such as TX');
      const nowhere = await submit(agent, '/dashboard/monitoring', '/dashboard/states/follow', { state: 'zz' });
      expect(nowhere.status).toBe(400);
      expect(visible(nowhere.text)).toContain('&#34;ZZ&#34; is not the code of a U.S. jurisdiction');
      const second = await submit(agent, '/dashboard/monitoring', '/dashboard/states/follow', { state: 'FL' });
      expect(second.status).toBe(402);
      expect(second.text).toContain('follows at most 1 whole states');

      const refused = await submit(agent, '/dashboard/monitoring', '/dashboard/webhooks', { url: 'https://10.0.0.7/hook' });
      expect(refused.status).toBe(422);
      expect(refused.text).toContain('points at 10.0.0.7, which is not a public address');
      const page = await agent.get('/dashboard/monitoring');
      const made = await agent.post('/dashboard/webhooks').type('form').send(`_csrf=${encodeURIComponent(csrfOf(page.text))}&url=${encodeURIComponent('https://93.184.216.34/hook')}&description=CRM&event_types=status_changed&event_types=left_source`);
      // Redirect after the post: the page it leads to shows the secret once, and a reload adds nothing.
      expect(made.status).toBe(303);
      expect(made.headers.location).toBe('/dashboard/monitoring');
      expect(made.text).not.toMatch(/whsec_/);
      const shown = await agent.get('/dashboard/monitoring');
      expect(visible(shown.text)).toContain('Endpoint https://93.184.216.34/hook added.');
      const secret = secretOf(shown.text);
      expect(secret).toMatch(/^whsec_/);
      const listed = await agent.get('/dashboard/monitoring');
      expect(listed.text).toContain('https://93.184.216.34/hook');
      expect(listed.text).toContain('status_changed, left_source');
      expect(listed.text).not.toContain(secret);
      expect(listed.text).not.toMatch(/shown only this once/);
      expect(await store.query("SELECT 1 FROM webhook_endpoints w JOIN accounts a ON a.id = w.account_id WHERE a.email = 'hooks.person@example.com'")).toHaveLength(1);
      const manage = /href="(\/dashboard\/webhooks\/we_[0-9a-f]{24})"/.exec(listed.text)![1];

      // An event for TX is published: the endpoint's log shows it waiting.
      await publishTxChange();
      const log = await agent.get(manage);
      expect(log.text).toMatch(/<td><code>status_changed<\/code>.*<\/td><td>pending<\/td><td>0<\/td>/);
      const redeliver = /action="(\/dashboard\/webhooks\/we_[0-9a-f]{24}\/deliveries\/msg_[0-9a-f]{32}\/redeliver)"/.exec(log.text)![1];
      expect(visible((await redirected(agent, await submit(agent, manage, redeliver, {}), manage)).text)).toContain('The delivery is being sent again.');

      const disabled = await redirected(agent, await submit(agent, manage, `${manage}/status`, { status: 'disabled' }), manage);
      expect(visible(disabled.text)).toMatch(/<dt>Status<\/dt><dd>disabled \(disabled by the account\)/);
      expect(visible(disabled.text)).toContain('The endpoint is disabled: nothing is sent to it.');
      const rotated = await submit(agent, manage, `${manage}/rotate`, {});
      expect(rotated.status).toBe(303);
      expect(rotated.headers.location).toBe(manage);
      const rotatedPage = await agent.get(manage);
      const newSecret = secretOf(rotatedPage.text);
      expect(newSecret).toMatch(/^whsec_/);
      expect(newSecret).not.toBe(secret);
      expect(rotatedPage.text).toContain('still signs until');
      expect(visible(rotatedPage.text)).toContain('The previous secret keeps signing beside the new one for 24 hours.');
      expect((await agent.get(manage)).text).not.toContain(newSecret);
      const confirm = await agent.get(`${manage}/delete`);
      expect(confirm.text).toContain('Delete the endpoint');
      const deleted = await redirected(agent, await submit(agent, `${manage}/delete`, `${manage}/delete`, {}), '/dashboard/monitoring');
      expect(visible(deleted.text)).toContain('Endpoint https://93.184.216.34/hook deleted.');
      expect(deleted.text).not.toContain(manage);
      expect((await agent.get(manage)).status).toBe(404);
      // Another account's endpoint is not found either.
      expect((await request(app).get(manage)).status).toBe(303);
    });

    it('when a delivery is sent again then the form redirects to the endpoint page, which says so once, and a reload sends nothing more', async () => {
      const { agent } = await signUp('send-again@example.com');
      await redirected(agent, await submit(agent, '/dashboard/monitoring', '/dashboard/states/follow', { state: 'TX' }), '/dashboard/monitoring');
      await redirected(agent, await submit(agent, '/dashboard/monitoring', '/dashboard/webhooks', { url: 'https://93.184.216.34/again' }), '/dashboard/monitoring');
      const [endpoint] = await store.query<{ id: string }>("SELECT w.id FROM webhook_endpoints w JOIN accounts a ON a.id = w.account_id WHERE a.email = 'send-again@example.com'");
      await publishTxChange();
      const deliveries = () => store.query<{ id: string; status: string }>('SELECT id, status FROM webhook_deliveries WHERE endpoint_id = $1', [endpoint.id]);
      const [delivery] = await deliveries();
      // It was given up on: failed, nothing waiting.
      await store.query("UPDATE webhook_deliveries SET status = 'failed', attempts = 3, retries_used = 3, next_attempt_at = NULL WHERE id = $1", [delivery.id]);

      const manage = `/dashboard/webhooks/${endpoint.id}`;
      const sent = await submit(agent, manage, `${manage}/deliveries/${delivery.id}/redeliver`, {});
      expect(sent.text).not.toContain('being sent again');
      const shown = await redirected(agent, sent, manage);
      expect(visible(shown.text)).toContain('The delivery is being sent again.');
      expect(await deliveries()).toEqual([{ id: delivery.id, status: 'pending' }]);
      // The dispatcher tries it and it fails again: a reload of the page must not queue it once more.
      await store.query("UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL WHERE id = $1", [delivery.id]);
      const reloaded = await agent.get(manage);
      expect(reloaded.status).toBe(200);
      expect(visible(reloaded.text)).not.toContain('being sent again');
      expect(await deliveries()).toEqual([{ id: delivery.id, status: 'failed' }]);
    });
  });
});
