import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFolder } from '../../src/ingest/load.js';
import { importsOf } from '../../src/compose/index.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { browserAvailable, launchOptions } from '../helpers/browser.js';
import { DEMO_SEEDS, emptyGraph, files, suiteNeo4j } from '../helpers/graph.js';
import { localNeo4jMissing, SHORT_LIVED_JVM, startLocalNeo4j, tempDir, type LocalNeo4j } from '../helpers/local-neo4j.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const target = suiteNeo4j();

/**
 * Browser comes with the repo's launcher: the suite's own when the global setup started it, else
 * (TEST_NEO4J_URI, testcontainers) one of this file's. Why it cannot run, or undefined.
 */
function missing(): string | undefined {
  if (!browserAvailable()) return 'no Chromium';
  if ('browserUrl' in target && target.browserUrl) return undefined;
  const reason = localNeo4jMissing();
  if (reason && process.env.REQUIRE_NEO4J === '1') throw new Error(`REQUIRE_NEO4J=1 but ${reason}`);
  return reason;
}
const why = missing();

describe.skipIf(why)(`Neo4j Browser against the local Neo4j${why ? `: skipped, ${why}` : ''}`, () => {
  let own: LocalNeo4j | undefined;
  const data = tempDir('lvs-neo4j-browser-');
  let chrome: Browser;
  let browserUrl: string;
  let password: string;

  beforeAll(async () => {
    let graph: GraphAdapters;
    if ('browserUrl' in target && target.browserUrl) {
      ({ browserUrl, password } = target);
      graph = await emptyGraph('neo4j');
    } else {
      own = await startLocalNeo4j({ dataDir: data.dir, password: 'browser-check-password', browser: true, javaOpts: SHORT_LIVED_JVM });
      ({ password } = own);
      browserUrl = own.browserUrl!;
      graph = await emptyGraph('neo4j', own);
    }
    await importFolder(importsOf(graph, files), DEMO_SEEDS);
    await graph.close();
    chrome = await chromium.launch(launchOptions());
  });

  afterAll(async () => {
    await chrome?.close();
    await own?.stop();
    data.remove();
  });

  it('when Browser is opened from its jar then it connects to Bolt, runs an analyst query and shows its rows', async () => {
    const page = await chrome.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(30_000);
    await page.goto(browserUrl);
    await page.locator('[data-testid=username]').fill('neo4j');
    await page.locator('[data-testid=password]').fill(password);
    await page.locator('[data-testid=connect]').click();
    await page.getByText('You are connected as user').first().waitFor();

    const run = async (text: string) => {
      await page.locator('#monaco-main-editor, [data-testid=activeEditor]').first().click();
      // Inserted whole: typed key by key, each key ran the editor's completion (most of the file's minute).
      await page.keyboard.insertText(text);
      await page.keyboard.press('Control+Enter');
    };
    await run(":params {state: 'TX', license_number: '9089631-B', as_of: '2026-11-25'}");
    const query = fs
      .readFileSync(path.join(ROOT, 'cypher/analyst/broker-current-affiliates.cypher'), 'utf8')
      .split('\n')
      .filter((line) => !line.startsWith('//'))
      .join(' ');
    await run(query);
    await page.getByText('Started streaming 40 records').waitFor();
    expect(await page.getByText('"614550-SA"').count()).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(data.dir, 'neo4j-browser.png') });
  });
});
