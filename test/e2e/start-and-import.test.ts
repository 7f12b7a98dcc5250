import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/graph.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = ['--import', 'tsx'];

interface Running {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts the real server (src/main.ts) on a free port and waits for its "listening" line. */
function startServer(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, [...TSX, 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 45000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/[^\s"]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1], output: () => out, exited });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    exited.then((code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
}

function runImport(dataDir: string, folder: string) {
  return spawnSync(process.execPath, [...TSX, 'src/cli/import.ts', folder, '--json'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
    timeout: 60000,
  });
}

describe('npm start and the import command on a fresh data dir', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-e2e-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('when started on an empty data dir then it loads the demo data, serves it, imports through itself and stops cleanly', async () => {
    const server = await startServer({ DATA_DIR: dataDir });
    children.push(server.child);
    expect(server.output()).toMatch(/loaded the demo dataset/);
    expect(server.output()).toMatch(/API docs: http:\/\/127\.0\.0\.1:\d+\/docs/);

    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: 'ok' });
    const coverage = (await (await fetch(`${server.url}/api/v1/coverage`)).json()) as { states: { state: string; record_count: number }[] };
    expect(coverage.states.find((s) => s.state === 'TX')?.record_count).toBe(150);

    // While the server holds the data dir the command hands the import to it.
    const viaServer = runImport(dataDir, fixture('small'));
    expect(viaServer.status, viaServer.stderr).toBe(0);
    expect(viaServer.stderr).toMatch(/importing through it/);
    expect(JSON.parse(viaServer.stdout)).toMatchObject({ credentials: 10, relationships: 6, demo_records_removed_for: ['TX', 'NY'] });
    const verify = (await (await fetch(`${server.url}/api/v1/licensees/verify?state=TX&license_number=763827-SA`)).json()) as { verified: boolean };
    expect(verify.verified).toBe(true);

    // Operator endpoints refuse callers without the token.
    const refused = await fetch(`${server.url}/internal/imports`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"folder":"/"}' });
    expect(refused.status).toBe(401);

    // Without the server's handle the command refuses with a clear message instead of touching the data.
    const handle = path.join(dataDir, 'server.json');
    const saved = fs.readFileSync(handle);
    fs.rmSync(handle);
    const refusedCli = runImport(dataDir, fixture('small'));
    expect(refusedCli.status).toBe(3);
    expect(refusedCli.stderr).toMatch(/open in another process \(is the server running\?\)/);
    fs.writeFileSync(handle, saved);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toMatch(/stopped/);
    expect(fs.existsSync(handle)).toBe(false);

    // With the server gone the command opens the graph itself; the second run changes nothing.
    const direct = runImport(dataDir, fixture('small'));
    expect(direct.status, direct.stderr).toBe(0);
    expect(JSON.parse(direct.stdout)).toMatchObject({ credentials: 10, demo_records_removed_for: ['TX', 'NY'] });

    // Restarted on a data dir that holds data: the demo set is not loaded again.
    const again = await startServer({ DATA_DIR: dataDir });
    children.push(again.child);
    expect(again.output()).not.toMatch(/loaded the demo dataset/);
    const tx = (await (await fetch(`${again.url}/api/v1/coverage`)).json()) as { states: { state: string; record_count: number }[] };
    expect(tx.states.find((s) => s.state === 'TX')?.record_count).toBe(8);
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
  });

  it('when started with DEMO_DATA=false then the graph stays empty', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-e2e-empty-'));
    const server = await startServer({ DATA_DIR: empty, DEMO_DATA: 'false' });
    children.push(server.child);
    const coverage = (await (await fetch(`${server.url}/api/v1/coverage`)).json()) as { states: unknown[] };
    expect(coverage.states).toEqual([]);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    fs.rmSync(empty, { recursive: true, force: true });
  });
});
