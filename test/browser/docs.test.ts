import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../../src/http/server.js';
import { CHROMIUM, browserAvailable, launchOptions } from '../helpers/browser.js';
import { fixture, useApp } from '../helpers/graph.js';

// A host name other than localhost, over plain HTTP: where helmet's default CSP made browsers
// fetch the page's assets over https.
const HOST = 'docs.lvs.test';

const browser = browserAvailable();
describe.runIf(browser)(`the interactive docs in Chromium${browser ? '' : `: skipped, no Chromium at ${CHROMIUM}`}`, () => {
  const t = useApp(fixture('small'));
  let server: Server;
  let chrome: Browser;
  beforeAll(async () => {
    server = await listen(t.app as never, { port: 0, host: '127.0.0.1' });
    chrome = await chromium.launch(launchOptions([`--host-resolver-rules=MAP ${HOST} 127.0.0.1`]));
  });
  afterAll(async () => {
    await chrome?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('when /docs is opened over HTTP on another host then it renders every operation and "Try it out" verifies a licence', async () => {
    const page = await chrome.newPage();
    page.setDefaultTimeout(15_000);
    const problems: string[] = [];
    // Chromium notes that it ignores Cross-Origin-Opener-Policy on a plain HTTP origin: a header
    // meant for HTTPS, not a fault of the page.
    page.on('console', (msg) => msg.type() === 'error' && !/Cross-Origin-Opener-Policy header has been ignored/.test(msg.text()) && problems.push(msg.text()));
    page.on('requestfailed', (req) => problems.push(`${req.url()}: ${req.failure()?.errorText}`));
    const { port } = server.address() as AddressInfo;
    await page.goto(`http://${HOST}:${port}/docs/`);

    await page.locator('.opblock').first().waitFor();
    // Every operation of the document and its two webhooks.
    const doc = (await t.api.get('/openapi.json').expect(200)).body as { paths: Record<string, object>; webhooks: Record<string, object> };
    const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    expect(operations).toBeGreaterThanOrEqual(52);
    expect(await page.locator('.opblock').count()).toBe(operations + Object.keys(doc.webhooks).length);

    await page.locator('button.authorize').first().click();
    await page.locator('.modal-ux input[type=text], .modal-ux input[type=password]').first().fill(t.key);
    await page.locator('.modal-ux .auth-btn-wrapper button.authorize').click();
    await page.locator('.modal-ux button.btn-done').click();

    const verify = page.locator('#operations-Licensees-verifyLicense');
    await verify.locator('.opblock-summary').click();
    await verify.locator('button.try-out__btn').click();
    // The state is a list of the codes the server takes: Swagger UI offers them as a select.
    await verify.locator('tr[data-param-name="state"] select').selectOption('TX');
    await verify.locator('input[placeholder="license_number"]').fill('763827-SA');
    await verify.locator('button.execute').click();
    const status = verify.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor();
    expect((await status.textContent())?.trim()).toBe('200');
    expect(await verify.locator('.live-responses-table .response-col_description pre').first().textContent()).toContain('"verified": true');
    // Nothing was upgraded to https, blocked by the CSP, or failed to load.
    expect(problems).toEqual([]);
  });
});
