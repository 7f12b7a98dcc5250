import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { TX_HEADER, txRow } from '../helpers/source-files.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const { NEO4J_URI: _n, DATABASE_URL: _d, ...BASE_ENV } = process.env;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-ingest-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** A TREC export of n sales agents under one broker; `variant` changes every agent's status. */
function txFile(name: string, n: number, status: string): string {
  const rows = [TX_HEADER, txRow({ type: 'Broker Individual', number: '1-B', name: 'TOP BROKER' })];
  for (let i = 0; i < n; i++) {
    rows.push(txRow({ type: 'Sales Agent', number: `${100000 + i}-SA`, name: `AGENT NUMBER${i}`, status, related: '1-B', relatedStart: '01/02/2020 12:00:00 AM' }));
  }
  const file = path.join(dataDir, name);
  fs.writeFileSync(file, `${rows.join('\n')}\n`);
  return file;
}

const ingest = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/ingest.ts', ...args, '--json'], {
    cwd: ROOT,
    env: { ...BASE_ENV, DATA_DIR: dataDir, DEMO_DATA: 'false' },
    encoding: 'utf8',
    timeout: 240000,
  });

describe('the ingest command on an on-disk graph', () => {
  it('when a run is killed in the middle then the earlier snapshot is intact, and the next run completes', async () => {
    const first = ingest('--snapshot', '2026-10-01', txFile('s1.csv', 200, 'Active'));
    expect(first.status, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ inserted: 201, edges_opened: 200 });

    // Snapshot 2 changes every agent; kill the run while it writes.
    const big = txFile('s2.csv', 12000, 'Inactive');
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/ingest.ts', '--snapshot', '2026-11-01', big], {
      cwd: ROOT,
      env: { ...BASE_ENV, DATA_DIR: dataDir, DEMO_DATA: 'false' },
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    // Wait until the run is writing its copy of the graph, then kill it.
    const copy = path.join(dataDir, 'graph.lbug.refresh');
    for (let i = 0; i < 400 && !fs.existsSync(copy); i++) await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(copy)).toBe(true);
    await new Promise((r) => setTimeout(r, 1500));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    // The same snapshot 1 again is a no-op: the killed run left nothing behind in the graph.
    const check = ingest('--snapshot', '2026-10-01', path.join(dataDir, 's1.csv'));
    expect(check.status, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ inserted: 0, updated: 0, unchanged: 201, left_source: 0, edges_opened: 0, edges_closed: 0 });

    // A run killed while its copy was being checkpointed leaves that WAL beside the copy too.
    fs.writeFileSync(`${copy}.wal.checkpoint`, Buffer.alloc(64 * 1024, 7));
    const again = ingest('--snapshot', '2026-11-01', big);
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ rows_read: 12001, inserted: 11800, updated: 200, unchanged: 1, edges_opened: 11800 });
    expect(fs.readdirSync(dataDir).filter((f) => f.startsWith('graph.lbug.refresh'))).toEqual([]);
  }, 300000);
});
