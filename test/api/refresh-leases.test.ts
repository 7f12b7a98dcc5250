import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { refreshOf } from '../../src/compose/index.js';
import type { GraphTx } from '../../src/graph/graph-port.js';
import { refresh } from '../../src/ingest/refresh/refresh.js';
import { resolveFormat } from '../../src/ingest/sources/index.js';
import { SourceItem } from '../../src/modules/coverage/coverage.schemas.js';
import { files, useApp } from '../helpers/graph.js';
import { body } from '../helpers/http.js';
import { TX_HEADER, caFile, tempFile, txRow } from '../helpers/source-files.js';

// One refresh per state at a time, across processes (the side store's leases), and its progress in /sources.
describe('refreshes of one state do not run at once', () => {
  const ctx = useApp();
  const rejectsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-leases-'));
  const txFile = tempFile('tx.csv', `${[TX_HEADER, txRow({ type: 'Sales Agent', number: '1-SA', name: 'FIRST AGENT' })].join('\n')}\n`);
  const repo = () => refreshOf(ctx.graph, files, ctx.side.clock, ctx.side.changes.log, ctx.side.refreshLeases);
  const run = (r = repo(), file = txFile, snapshot = '2026-09-01') => refresh(r, { files: [file], format: resolveFormat(file), snapshot, rejectsDir });
  /** A repo whose run waits, once it holds the lease, until `release` is called. */
  const held = () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const r = repo();
    return {
      repo: {
        ...r,
        writes: {
          ...r.writes,
          async *existing(t: GraphTx, state: string) {
            await gate;
            yield* r.writes.existing(t, state);
          },
        },
      },
      release,
    };
  };
  const until = async (check: () => Promise<boolean>) => {
    while (!(await check())) await new Promise((r) => setTimeout(r, 10));
  };

  it('when a refresh of a state runs then a second one is refused with 409 naming it, /sources shows its progress, and once it lands the next one runs', async () => {
    const first = held();
    const running = run(first.repo);
    // Whatever fails below, the held run ends with the test.
    onTestFinished(async () => {
      first.release();
      await running.catch(() => undefined);
    });
    await until(async () => (await ctx.side.refreshLeases.running()).length === 1);

    const refused = await run().then(() => undefined, (err: unknown) => err);
    expect(refused).toMatchObject({ status: 409 });
    expect((refused as Error).message).toMatch(new RegExp(`^a refresh of TX \\(tx-trec\\) is running: run [0-9a-f-]{36} on ${os.hostname()}:${process.pid}, started .*; try again when it ends$`));

    // The state's first refresh: its source is listed from its lease, with the run's progress.
    const sources = body(await ctx.api.get('/api/v1/sources'), SourceItem.array());
    expect(sources.find((s) => s.state === 'TX')).toMatchObject({ id: 'tx-trec', last_run: null, refresh_in_progress: { phase: 'reading', rows_read: 0, percent_read: 0 } });

    first.release();
    expect(await running).toMatchObject({ inserted: 1 });
    expect(await ctx.side.refreshLeases.running()).toEqual([]);
    const after = body(await ctx.api.get('/api/v1/sources'), SourceItem.array()).find((s) => s.state === 'TX');
    expect(after).toMatchObject({ id: 'tx-trec', last_snapshot_date: '2026-09-01', refresh_in_progress: null });
    expect(await run(repo(), txFile, '2026-09-02')).toMatchObject({ unchanged: 1 });
  });

  it('when another process holds the lease then the refresh is refused naming that process; a lease it stopped renewing is taken over', async () => {
    const other = { state: 'TX', source: 'tx-trec', run_id: '00000000-0000-4000-8000-000000000001', holder: 'ingest-host-2:4242' };
    expect(await ctx.side.refreshLeases.acquire(other)).toBeNull();
    const refused = await run(repo(), txFile, '2026-09-03').then(() => undefined, (err: unknown) => err);
    expect((refused as Error).message).toMatch(/^a refresh of TX \(tx-trec\) is running: run 00000000-0000-4000-8000-000000000001 on ingest-host-2:4242, started /);

    // Its process died: the lease is not renewed, and lapses after 30 s.
    await ctx.store.query("UPDATE refresh_leases SET heartbeat_at = now() - interval '31 seconds' WHERE state = 'TX'");
    expect(await ctx.side.refreshLeases.running()).toEqual([]);
    expect(await run(repo(), txFile, '2026-09-03')).toMatchObject({ unchanged: 1 });
  });

  it('when the lease is held by a process of this host that is gone (killed) then the next run takes it over at once', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.pid']).pid!;
    const dead = { state: 'TX', source: 'tx-trec', run_id: '00000000-0000-4000-8000-000000000002', holder: `${os.hostname()}:${gone}` };
    expect(await ctx.side.refreshLeases.acquire(dead)).toBeNull();
    expect(await run(repo(), txFile, '2026-09-03')).toMatchObject({ unchanged: 1 });
    expect(await ctx.side.refreshLeases.running()).toEqual([]);
  });

  it('when refreshes of two states run at once then neither is refused: the second waits where the engine serialises them', async () => {
    const first = held();
    const tx = run(first.repo, txFile, '2026-09-04');
    onTestFinished(async () => {
      first.release();
      await tx.catch(() => undefined);
    });
    await until(async () => (await ctx.side.refreshLeases.running()).length === 1);
    const caFile1 = caFile([['N', 'SOLO', 'SAM', '', '00055594', 'Salesperson', 'Licensed NBA', '20240101', '20280101', '20150105', '', '', '', '', '', '', '', '', 'CA', '', '', '', '', '', '']]);
    const ca = run(repo(), caFile1, '2026-09-04');
    await until(async () => (await ctx.side.refreshLeases.running()).length === 2);
    expect((await ctx.side.refreshLeases.running()).map((r) => r.state)).toEqual(['CA', 'TX']);
    first.release();
    expect(await tx).toMatchObject({ state: 'TX' });
    expect(await ca).toMatchObject({ state: 'CA', inserted: 1 });
  });
});
