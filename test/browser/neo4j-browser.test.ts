import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFolder } from '../../src/ingest/canonical-import.js';
import { importRepo, openGraph } from '../../src/deps.js';
import { browserAvailable, launchOptions } from '../helpers/browser.js';
import { DEMO_SEEDS, files } from '../helpers/graph.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LAUNCHER = path.join(ROOT, 'tools/neo4j/run.mjs');
const launcherModule: string = LAUNCHER;
const { jarsFetched } = (await import(launcherModule)) as { jarsFetched: () => boolean };

/** Why the local Neo4j cannot run here, or undefined when it can. CI (REQUIRE_NEO4J=1) fails instead. */
function neo4jMissing(): string | undefined {
  const reason = spawnSync('java', ['-version']).error
    ? 'no Java runtime'
    : !jarsFetched()
      ? 'the Neo4j jars are not fetched (npm run neo4j fetches them once)'
      : undefined;
  if (reason && process.env.REQUIRE_NEO4J === '1') throw new Error(`REQUIRE_NEO4J=1 but ${reason}`);
  if (reason) console.warn(`Neo4j Browser check skipped: ${reason}`);
  return reason;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

const missing = browserAvailable() ? neo4jMissing() : 'no Chromium';
const PASSWORD = 'browser-check-password';

describe.skipIf(missing)(`Neo4j Browser against the local Neo4j${missing ? `: skipped, ${missing}` : ''}`, () => {
  let neo4j: ChildProcess;
  let chrome: Browser;
  let browserUrl: string;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-neo4j-browser-'));

  beforeAll(async () => {
    const [bolt, http] = [await freePort(), await freePort()];
    neo4j = spawn(process.execPath, [LAUNCHER], {
      env: { ...process.env, DATA_DIR: dataDir, NEO4J_PASSWORD: PASSWORD, NEO4J_BOLT_PORT: String(bolt), NEO4J_BROWSER_PORT: String(http) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const onData = (d: Buffer) => {
        out += d;
        if (/ ready, data in /.test(out)) resolve();
      };
      neo4j.stdout!.on('data', onData);
      neo4j.stderr!.on('data', onData);
      neo4j.once('exit', (code) => reject(new Error(`Neo4j exited with ${code}:\n${out}`)));
    });
    const graph = await openGraph(
      { graphPath: ':memory:', GRAPH_BUFFER_POOL_MB: 64, GRAPH_CONNECTIONS: 1, GRAPH_QUERY_TIMEOUT_MS: 60000, NEO4J_URI: `bolt://127.0.0.1:${bolt}`, NEO4J_PASSWORD: PASSWORD },
      files,
    );
    await importFolder(importRepo(graph, files), DEMO_SEEDS);
    await graph.close();
    browserUrl = `http://127.0.0.1:${http}/`;
    chrome = await chromium.launch(launchOptions());
  });

  afterAll(async () => {
    await chrome?.close();
    if (neo4j && neo4j.exitCode === null) {
      const exited = new Promise((r) => neo4j.once('exit', r));
      neo4j.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('when Browser is opened from its jar then it connects to Bolt, runs an analyst query and shows its rows', async () => {
    const page = await chrome.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(30_000);
    await page.goto(browserUrl);
    await page.locator('[data-testid=username]').fill('neo4j');
    await page.locator('[data-testid=password]').fill(PASSWORD);
    await page.locator('[data-testid=connect]').click();
    await page.getByText('You are connected as user').first().waitFor();

    const run = async (text: string) => {
      await page.locator('#monaco-main-editor, [data-testid=activeEditor]').first().click();
      await page.keyboard.type(text);
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
    await page.screenshot({ path: path.join(dataDir, 'neo4j-browser.png') });
  });
});
