import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript, spawnScript } from '../helpers/processes.js';
import { txAgentsFile } from '../helpers/source-files.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-ingest-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const txFile = (name: string, n: number, status: string) => txAgentsFile(dataDir, name, n, status);

const env = { DATA_DIR: dataDir, DEMO_DATA: 'false' };
const ingest = (...args: string[]) => runScript('src/cli/ingest.ts', [...args, '--json'], env, 240000);

describe('the ingest command on an on-disk graph', () => {
  it('when a run is killed in the middle then the earlier snapshot is intact, and the next run completes', async () => {
    const first = ingest('--snapshot', '2026-10-01', txFile('s1.csv', 200, 'Active'));
    expect(first.status, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ inserted: 201, edges_opened: 200 });

    // Snapshot 2 changes every agent; kill the run while it writes.
    const big = txFile('s2.csv', 12000, 'Inactive');
    const child = spawnScript('src/cli/ingest.ts', ['--snapshot', '2026-11-01', big], env);
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
    const again = ingest('--snapshot', '2026-11-01', '--timings', big);
    expect(again.status, again.stderr).toBe(0);
    const summary = JSON.parse(again.stdout);
    expect(summary).toMatchObject({ rows_read: 12001, inserted: 11800, updated: 200, unchanged: 1, edges_opened: 11800 });
    // --timings: where the graph's time went, by query file, longest first.
    const times = summary.statements as { name: string; statements: number; seconds: number }[];
    expect(times.find((t) => t.name === 'refresh/record-run')).toMatchObject({ statements: 1 });
    expect(times.map((t) => t.name)).toEqual(expect.arrayContaining(['engine/ladybug/refresh/existing-credentials', 'engine/ladybug/create-credentials']));
    for (const t of times) expect(Number.isInteger(t.statements) && t.statements > 0 && t.seconds >= 0, t.name).toBe(true);
    expect(times.map((t) => t.seconds)).toEqual(times.map((t) => t.seconds).sort((a, b) => b - a));
    expect(fs.readdirSync(dataDir).filter((f) => f.startsWith('graph.lbug.refresh'))).toEqual([]);
  }, 300000);
});
