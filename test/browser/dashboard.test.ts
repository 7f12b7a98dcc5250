import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { smtpMailer } from '../../src/mail/nodemailer.js';
import { CHROMIUM, browserAvailable, launchOptions } from '../helpers/browser.js';
import { createApp } from '../../src/app.js';
import type { SideServices } from '../../src/compose/index.js';
import { fixture, testGraph, testStore, testServices } from '../helpers/graph.js';
import { testSmtpServer } from '../helpers/smtp.js';

// A person goes from nothing to a working key in Chromium: sign up, the e-mail over real SMTP,
// the link, keys, usage, revocation, sign-out; axe-core checks every page. With
// DASHBOARD_SCREENSHOTS=<dir> each page is also saved there (docs/images holds the docs' copies).
const HOST = 'dash.lvs.test';
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SHOTS = process.env.DASHBOARD_SCREENSHOTS;

const browser = browserAvailable();
describe.runIf(browser)(`the dashboard in Chromium${browser ? '' : `: skipped, no Chromium at ${CHROMIUM}`}`, () => {
  let graph: GraphAdapters;
  let side: SideServices;
  let smtp: Awaited<ReturnType<typeof testSmtpServer>>;
  let server: http.Server;
  let chrome: Browser;
  let base: string;
  let flusher: NodeJS.Timeout;
  let deps: ReturnType<typeof testServices>;
  beforeAll(async () => {
    ({ graph } = await testGraph(fixture('small')));
    side = await testStore();
    smtp = await testSmtpServer();
    let app: http.RequestListener = (_req, res) => res.end();
    server = http.createServer((req, res) => app(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://${HOST}:${(server.address() as AddressInfo).port}`;
    deps = testServices(graph, side, {}, { mailer: smtpMailer(smtp.url, 'LVS <no-reply@example.test>'), publicBaseUrl: base });
    app = createApp(deps) as unknown as http.RequestListener;
    await deps.jobRunner.start();
    // As the server does: usage in memory goes to the store each second.
    flusher = setInterval(() => void side.meter.flush().catch(() => undefined), 1000);
    chrome = await chromium.launch(launchOptions([`--host-resolver-rules=MAP ${HOST} 127.0.0.1`]));
  });
  afterAll(async () => {
    clearInterval(flusher);
    await deps?.jobRunner.stop();
    await chrome?.close();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await smtp?.close();
    await graph?.close();
    await side?.store.close();
  });

  /** No serious or critical axe-core violation on the page; saves a screenshot when asked. */
  async function checked(page: Page, name: string) {
    await page.evaluate(AXE);
    const violations = await page.evaluate(async () => {
      const result = await (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run();
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
    expect(violations, name).toEqual([]);
    if (SHOTS) {
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SHOTS, `dashboard-${name}.png`), fullPage: true });
    }
  }

  const verify = (key: string) => fetch(`${base.replace(HOST, '127.0.0.1')}/api/v1/licensees/verify?state=TX&license_number=763827-SA`, { headers: { Authorization: `Bearer ${key}` } }).then((r) => r.status);

  it('when a person signs up in the browser then they get a working key, see their usage, rotate keys and sign out', async () => {
    const context = await chrome.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const problems: string[] = [];
    page.on('console', (msg) => msg.type() === 'error' && !/Cross-Origin-Opener-Policy/.test(msg.text()) && problems.push(msg.text()));
    page.on('pageerror', (err) => problems.push(err.message));

    await page.goto(`${base}/dashboard`);
    await expect.poll(() => page.title()).toMatch(/^Sign in/);
    await checked(page, 'sign-in');
    await page.getByRole('link', { name: 'Sign up' }).first().click();
    await page.getByRole('heading', { name: 'Create a free account' }).waitFor();
    await checked(page, 'sign-up');
    const before = smtp.received.length;
    // By keyboard alone: the field is focused from its label, Enter sends the form.
    await page.getByLabel('E-mail address').focus();
    await page.keyboard.type('browser.person@example.com');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await checked(page, 'check-email');

    const mail = await smtp.next('browser.person@example.com', before);
    expect(mail.link!.startsWith(`${base}/dashboard/link?token=`)).toBe(true);
    await page.goto(mail.link!);
    await checked(page, 'confirm-link');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    await expect.poll(() => page.getByText('This account has no working key').count()).toBe(1);

    await page.getByLabel('Label for a new key (optional)').fill('key A');
    await page.getByRole('button', { name: 'Create a key' }).click();
    const keyA = await page.getByLabel('API key', { exact: true }).inputValue();
    expect(keyA).toMatch(/^lvs_live_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.locator('.copied').textContent()).toMatch(/Copied|Selected/);
    await checked(page, 'new-key');
    // The form redirected to a page (303): reloading it shows the key no more and makes no other.
    await page.reload();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    expect(await page.getByLabel('API key', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('link', { name: /^Revoke key ending/ }).count()).toBe(1);

    expect(await verify(keyA)).toBe(200);
    // Usage moves: the page read again shows the call.
    await expect.poll(async () => (await page.goto(`${base}/dashboard`), await page.locator('main').textContent()), { timeout: 15_000 }).toMatch(/1 of 25 lookups used/);
    expect(await page.locator('svg.chart rect').count()).toBeGreaterThanOrEqual(28);
    await checked(page, 'account');

    await page.getByLabel('Label for a new key (optional)').fill('key B');
    await page.getByRole('button', { name: 'Create a key' }).click();
    const keyB = await page.getByLabel('API key', { exact: true }).inputValue();
    await page.goto(`${base}/dashboard`);
    await page.getByRole('link', { name: `Revoke key ending ${keyA.slice(-4)}` }).click();
    await page.getByRole('heading', { name: 'Revoke a key' }).waitFor();
    await checked(page, 'revoke');
    await page.getByRole('button', { name: 'Revoke the key' }).click();
    await page.getByText(`The key ending ${keyA.slice(-4)} is revoked.`).waitFor();
    expect(await verify(keyA)).toBe(401);
    expect(await verify(keyB)).toBe(200);

    // Monitoring: a watchlist from a CSV file, a followed state, a webhook endpoint and its page.
    await page.getByRole('link', { name: 'Monitoring' }).click();
    await page.getByRole('heading', { name: 'Monitoring' }).waitFor();
    await page.getByLabel('Add licences from a CSV file').setInputFiles({ name: 'watch.csv', mimeType: 'text/csv', buffer: Buffer.from('state,license_number\nTX,763827-SA\nTX,100001-B\nXX\n') });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByText('2 licences added, 0 already watched; 2 of 25 watched now.').waitFor();
    await page.getByText('line 4: "XX" is not the code of a U.S. jurisdiction').waitFor();
    await page.getByLabel('Follow a state (two letters)').fill('tx');
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    await page.getByText('Following TX.').waitFor();
    await page.getByLabel('Endpoint URL (https)').fill('https://93.184.216.34/hooks/licences');
    await page.getByLabel('status_changed', { exact: true }).check();
    await page.getByRole('button', { name: 'Add the endpoint' }).click();
    expect(await page.getByRole('textbox', { name: 'Signing secret' }).inputValue()).toMatch(/^whsec_/);
    await checked(page, 'monitoring');
    await page.getByRole('link', { name: 'Manage https://93.184.216.34/hooks/licences' }).click();
    await page.getByRole('heading', { name: 'Webhook endpoint' }).waitFor();
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('The endpoint is disabled: nothing is sent to it.').waitFor();
    await checked(page, 'webhook-endpoint');
    // Every form redirects after its POST: the address is the endpoint's page, and a reload shows the notice no more.
    expect(new URL(page.url()).pathname).toMatch(/^\/dashboard\/webhooks\/we_[0-9a-f]{24}$/);
    await page.reload();
    await page.getByRole('heading', { name: 'Webhook endpoint' }).waitFor();
    expect(await page.getByText('The endpoint is disabled: nothing is sent to it.').count()).toBe(0);

    // Verifications: the verification log of the calls above, filtered, and its CSV download.
    await page.getByRole('link', { name: 'Verifications' }).click();
    await page.getByRole('heading', { name: 'Verifications' }).waitFor();
    const rows = page.getByRole('table', { name: 'Verifications, newest first' }).locator('tbody tr');
    // Two calls were answered (the revoked key's 401 was not).
    expect(await rows.count()).toBe(2);
    await checked(page, 'verifications');
    await page.getByLabel('Verdict').selectOption('clear');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('No verifications match.').waitFor();
    await page.getByLabel('Verdict').selectOption('consider');
    await page.getByLabel('Licence number').fill('763827-sa');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => rows.count()).toBe(2);
    expect(new URL(page.url()).searchParams.get('license_number')).toBe('763827-sa');
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download these as CSV' }).click();
    const csv = fs.readFileSync(await (await download).path(), 'utf8').trim().split('\n');
    expect(csv).toHaveLength(3);
    expect(csv[0]).toMatch(/^id,created_at,key_id,/);
    expect(csv.slice(1).every((l) => /,TX,763827-SA,,true,consider,probation,/.test(l))).toBe(true);
    await page.getByLabel('From (date)').fill('2000-01-01');
    await page.getByLabel('State').fill('Texas');
    const logged = problems.length;
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText(/state: must be a two-letter state code/).waitFor();
    await checked(page, 'verifications-error');
    // The page answers a bad filter 400, which Chromium logs; nothing else may be.
    expect(problems.splice(logged)).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);

    // Roster jobs: the free plan is told before any upload, a file at fault listed by line, then a roster verified live.
    await page.getByRole('link', { name: 'Roster jobs' }).click();
    await page.getByRole('heading', { name: 'Roster jobs' }).waitFor();
    await page.getByText(/Roster jobs need a paid plan: the free plan does not include roster verification jobs/).waitFor();
    expect(await page.getByLabel('Roster (CSV)').count()).toBe(0);
    await checked(page, 'jobs');
    const refusedBefore = problems.length;
    const roster = (rows: string[]) => ({ name: 'roster.csv', mimeType: 'text/csv', buffer: Buffer.from(['Agent Name,License #,ST', ...rows].join('\n')) });
    await side.accounts.setPlan('browser.person@example.com', 'starter');
    await page.reload();
    await page.getByLabel('Roster (CSV)').setInputFiles(roster(['Dana Quinn,200001-B,TX', 'Someone,100001-B,Texas']));
    await page.getByRole('button', { name: 'Upload and verify' }).click();
    await page.getByText('line 3, state: must be a two-letter state code').waitFor();
    await checked(page, 'jobs-refused');
    // The refusal is a 400 page, which Chromium logs.
    expect(problems.splice(refusedBefore)).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    const rows5000 = Array.from({ length: 5_000 }, (_, i) => (i === 1 ? 'Robert Quinn,200001-B,TX' : i % 2 ? `Nobody,NOPE-${i},TX` : 'Dana Quinn,200001-B,TX'));
    await page.getByLabel('Roster (CSV)').setInputFiles(roster(rows5000));
    await page.getByLabel('Name of the job (optional)').fill('Onboarding');
    await page.getByLabel(/Also watch every licence found/).check();
    await page.getByRole('button', { name: 'Upload and verify' }).click();
    await page.getByRole('heading', { name: 'Onboarding' }).waitFor();
    // The page follows the job as it runs, and shows the finished job once it stops.
    await page.getByRole('status').filter({ hasText: /^completed$/ }).waitFor({ timeout: 60_000 });
    await page.getByText('5,000 of 5,000 rows done').waitFor();
    const considered = page.getByRole('table', { name: 'Rows to consider, in roster order' }).locator('tbody tr');
    expect(await considered.count()).toBe(1);
    expect(await considered.first().textContent()).toMatch(/^2TX 200001-BDANA QUINNname_mismatchmismatch/);
    await page.getByText('Watchlist: 1 added, 0 already watched.').waitFor();
    await checked(page, 'job');
    const results = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download every row as CSV' }).click();
    const lines = fs.readFileSync(await (await results).path(), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(5_001);
    expect(lines[0]).toMatch(/^row,state,license_number,name_sent,verified,verdict,/);
    expect(lines[2]).toMatch(/^2,TX,200001-B,Robert Quinn,true,consider,name_mismatch,mismatch,/);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
    await page.goto(`${base}/dashboard`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // Nothing was blocked by the CSP, and no script failed.
    expect(problems).toEqual([]);
    await context.close();
  });
});
