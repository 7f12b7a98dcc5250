import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/graph.js';
import { TX_HEADER, txRow } from '../helpers/source-files.js';
import { POSTGRES_URL, postgresAvailable } from '../helpers/stores.js';
import pg from 'pg';
import { getJson, runScript, runScriptAsync, startServer } from '../helpers/processes.js';

const runCli = (dataDir: string, script: string, args: string[]) => runScriptAsync(script, args, { DATA_DIR: dataDir }, 60000);
const runImport = (dataDir: string, folder: string) => runCli(dataDir, 'src/cli/import.ts', [folder, '--json']);
const runAdmin = (dataDir: string, ...args: string[]) => runCli(dataDir, 'src/cli/admin.ts', [...args, '--json']);

const get = getJson;

describe('npm start and the import command on a fresh data dir', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-e2e-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('when started on an empty data dir then it loads the demo data, serves it, imports through itself and stops cleanly', async () => {
    const metricsToken = 'metrics-token-of-this-test';
    const server = await startServer({ DATA_DIR: dataDir, METRICS_TOKEN: metricsToken });
    children.push(server.child);
    expect(server.output()).toMatch(/loaded the demo dataset/);
    expect(server.output()).toMatch(/API docs: http:\/\/127\.0\.0\.1:\d+\/docs/);

    // The demo account's key is printed once, to the terminal.
    // It follows the "listening" line, once the account is stored.
    for (let i = 0; i < 100 && !/Bearer lvs_live_/.test(server.output()); i++) await new Promise((r) => setTimeout(r, 50));
    const demoKey = /Bearer (lvs_live_[A-Za-z0-9_-]{32})/.exec(server.output())?.[1];
    expect(demoKey).toBeDefined();
    expect(server.output().split(demoKey!).length - 1).toBe(2); // the key line and the curl example, nothing else
    expect((await get(`${server.url}/api/v1/account`, demoKey)).body).toMatchObject({ email: 'demo@example.com', plan: 'growth' });
    expect((await get(`${server.url}/api/v1/account`)).status).toBe(401);


    // /health says, without a key, whether the search index is ready: this start builds it from the demo data it loaded.
    let health = await (await fetch(`${server.url}/health`)).json();
    for (let i = 0; i < 200 && health.search_index?.status !== 'ready'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      health = await (await fetch(`${server.url}/health`)).json();
    }
    expect(health).toMatchObject({ status: 'ok', search_index: { status: 'ready', built_from: 'export', rows: 419 } });
    const coverage = (await (await fetch(`${server.url}/api/v1/coverage`)).json()) as { states: { state: string; record_count: number }[] };
    expect(coverage.states.find((s) => s.state === 'TX')?.record_count).toBe(150);

    // While the server holds the data dir the command hands the import to it.
    const viaServer = await runImport(dataDir, fixture('small'));
    // On failure, the server's state and log say why it did not answer.
    const state = server.child.exitCode ?? server.child.signalCode ?? 'running';
    expect(viaServer.status, `${viaServer.stderr}\nserver: ${state}; its log:\n${server.output()}`).toBe(0);
    expect(viaServer.stderr).toMatch(/running through it/);
    expect(JSON.parse(viaServer.stdout)).toMatchObject({ credentials: 10, relationships: 6, demo_records_removed_for: ['TX', 'NY'] });
    const verify = await get(`${server.url}/api/v1/licensees/verify?state=TX&license_number=763827-SA`, demoKey);
    expect(verify.body.verified).toBe(true);

    // A state refresh goes through the server too, which serves the result at once.
    const txFile = path.join(dataDir, 'tx-refresh.csv');
    fs.writeFileSync(txFile, `${TX_HEADER}\n${txRow({ type: 'Broker Individual', number: '777-B', name: 'REFRESHED BROKER' })}\n`);
    const refreshed = await runCli(dataDir, 'src/cli/ingest.ts', ['--snapshot', '2026-11-20', '--partial', txFile, '--json']);
    expect(refreshed.status, refreshed.stderr).toBe(0);
    expect(refreshed.stderr).toMatch(/running through it/);
    expect(JSON.parse(refreshed.stdout)).toMatchObject({ source: 'tx-trec', inserted: 1, full_snapshot: false });
    expect((await get(`${server.url}/api/v1/licensees/TX/777-B`, demoKey)).body.data).toMatchObject({ full_name: 'REFRESHED BROKER', relationship_coverage: 'verified_graph' });
    // The refresh swapped the refreshed file in under the readers' gate: /metrics says how long reads were held.
    const exposition = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
    const sample = (name: string) => Number(new RegExp(`^${name}\\{engine="ladybug",work="swap"\\} (\\S+)$`, 'm').exec(exposition)?.[1]);
    expect(sample('lvs_graph_gate_holds_total')).toBeGreaterThanOrEqual(1);
    expect(sample('lvs_graph_gate_longest_hold_seconds')).toBeGreaterThan(0);
    expect(sample('lvs_graph_gate_held_seconds_total')).toBeGreaterThanOrEqual(sample('lvs_graph_gate_longest_hold_seconds'));

    // The operator command line works through the server too: a new account, its key, revocation.
    const created = await runAdmin(dataDir, 'accounts', 'create', '--email', 'Ops@Example.com', '--plan', 'free');
    expect(created.status, created.stderr).toBe(0);
    const { account, key } = JSON.parse(created.stdout);
    expect(account).toMatchObject({ email: 'ops@example.com', plan: 'free' });
    expect((await get(`${server.url}/api/v1/account`, key.key)).body.plan).toBe('free');
    const listed = JSON.parse((await runAdmin(dataDir, 'accounts', 'list')).stdout) as { email: string }[];
    expect(listed.map((a) => a.email).sort()).toEqual(['demo@example.com', 'ops@example.com']);
    expect((await runAdmin(dataDir, 'keys', 'revoke', key.id)).status).toBe(0);
    expect((await get(`${server.url}/api/v1/account`, key.key)).status).toBe(401);

    // Operator endpoints refuse callers without the right token.
    for (const headers of [{}, { 'x-admin-token': 'wrong' }] as Record<string, string>[]) {
      const refused = await fetch(`${server.url}/internal/commands/accounts.list`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });
      expect(refused.status).toBe(401);
    }

    // Without the server's handle the command refuses with a clear message instead of touching the data.
    const handle = path.join(dataDir, 'server.json');
    const saved = fs.readFileSync(handle);
    fs.rmSync(handle);
    const refusedCli = await runImport(dataDir, fixture('small'));
    expect(refusedCli.status).toBe(3);
    expect(refusedCli.stderr).toMatch(/open in another process \(is the server running\?\)/);
    fs.writeFileSync(handle, saved);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toMatch(/stopped/);
    expect(fs.existsSync(handle)).toBe(false);

    // With the server gone the command opens the graph itself; the second run changes nothing.
    const direct = await runImport(dataDir, fixture('small'));
    expect(direct.status, direct.stderr).toBe(0);
    expect(JSON.parse(direct.stdout)).toMatchObject({ credentials: 10, demo_records_removed_for: [] });

    // With no server the operator command opens the store itself.
    const plan = await runAdmin(dataDir, 'accounts', 'set-plan', 'ops@example.com', '--plan', 'starter');
    expect(plan.status, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout).plan).toBe('starter');

    // Restarted on a data dir that holds data: no demo data, no new demo account, and usage survived.
    const again = await startServer({ DATA_DIR: dataDir });
    children.push(again.child);
    expect(again.output()).not.toMatch(/loaded the demo dataset/);
    expect(again.output()).not.toMatch(/lvs_live_/);
    // ... but it says where a key comes from, once it listens.
    for (let i = 0; i < 100 && !/keys create/.test(again.output()); i++) await new Promise((r) => setTimeout(r, 50));
    expect(again.output()).toContain(`${again.url}/dashboard`);
    expect(again.output()).toContain('npm run -s admin -- keys create');
    const root = await get(`${again.url}/`);
    expect(root).toEqual({ status: 200, body: expect.objectContaining({ docs: '/docs', openapi: '/openapi.json', dashboard: '/dashboard' }) });
    const usage = await get(`${again.url}/api/v1/account/usage`, demoKey);
    expect(usage.body.by_endpoint).toMatchObject({ verifyLicense: 1 });
    const tx = (await (await fetch(`${again.url}/api/v1/coverage`)).json()) as { states: { state: string; record_count: number }[] };
    expect(tx.states.find((s) => s.state === 'TX')?.record_count).toBe(9); // the fixture's 8 and the refreshed broker
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
    // Two server starts and eight command-line processes: 19 s alone on a 2-core machine, over
    // 30 s while the rest of the suite runs beside it.
  }, 300_000);

  it('when the configuration is invalid then the start names every problem, without a stack trace', () => {
    const bad = runScript('src/main.ts', [], { DATA_DIR: dataDir, PORT: 'eighty', NEO4J_POOL_SIZE: 'many' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^cannot start: invalid configuration:\n {2}PORT="eighty": must be a whole number from 0 to 65,535\n {2}NEO4J_POOL_SIZE="many": must be a whole number from 1 to 500\n?$/);
  });

  it('when started with DEMO_DATA=false then the graph stays empty; with METRICS_PORT its metrics are on that port alone', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-e2e-empty-'));
    const server = await startServer({ DATA_DIR: empty, DEMO_DATA: 'false', METRICS_PORT: '0' });
    children.push(server.child);
    const coverage = (await (await fetch(`${server.url}/api/v1/coverage`)).json()) as { states: unknown[] };
    expect(coverage.states).toEqual([]);
    const metricsPort = /"metrics_port":(\d+)/.exec(server.output())?.[1];
    expect(metricsPort, server.output()).toBeDefined();
    const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toMatch(/^lvs_http_requests_total\{route="\/api\/v1\/coverage",method="GET",status="200"\} 1$/m);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    fs.rmSync(empty, { recursive: true, force: true });
  });
});

const postgresUp = await postgresAvailable();
describe.skipIf(!postgresUp)(`npm start with DATABASE_URL${postgresUp ? '' : `: skipped, PostgreSQL at ${POSTGRES_URL} does not answer`}`, () => {
  it('when the side store is PostgreSQL then no demo account is created and the command line talks to it directly', async () => {
    const schema = `lvs_e2e_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const url = new URL(POSTGRES_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-e2e-pg-'));
    try {
      const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: url.toString() });
      expect(server.output()).toMatch(/"store":"postgres"/);
      expect(server.output()).not.toMatch(/lvs_live_/);
      expect((await admin.query(`SELECT count(*)::int AS n FROM ${schema}.accounts`)).rows[0].n).toBe(0);
      // With PostgreSQL the operator command needs no server: it connects itself.
      const created = runScript('src/cli/admin.ts', ['accounts', 'create', '--email', 'pg@example.com', '--plan', 'growth', '--json'], { DATA_DIR: dataDir, DATABASE_URL: url.toString() });
      expect(created.status, created.stderr).toBe(0);
      const { key } = JSON.parse(created.stdout);
      expect((await get(`${server.url}/api/v1/account`, key.key)).body).toMatchObject({ email: 'pg@example.com', plan: 'growth' });
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
