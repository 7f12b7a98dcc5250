import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { DEMO_BROKER, DEMO_LICENCE } from '../../src/http/examples.js';
import { startServer, type Running } from '../helpers/processes.js';
import { postgresAvailable, postgresSchema, sideOf } from '../helpers/stores.js';

// No answer without its record: a server killed (SIGKILL) while verify and batch calls pour in
// leaves a committed verification record for every answer a client received, on both side stores.

const LOOPS = 12;
const havePostgres = await postgresAvailable();

/** Calls verify and batch from LOOPS loops until the server dies; returns the ids of every answer received whole. */
async function loadUntilKilled(server: Running, key: string, killAfter: number): Promise<{ ids: string[]; answers: number }> {
  const ids: string[] = [];
  let answers = 0;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const batch = JSON.stringify({ licenses: [{ state: 'TX', license_number: DEMO_LICENCE }, { state: 'TX', license_number: DEMO_BROKER, name: 'Someone Else' }, { state: 'TX', license_number: 'NOPE-1' }] });
  let dead = false;
  const loop = async (n: number) => {
    for (let i = 0; !dead; i++) {
      try {
        const res = i % 3 === 0
          ? await fetch(`${server.url}/api/v1/licensees/batch`, { method: 'POST', headers, body: batch })
          : await fetch(`${server.url}/api/v1/licensees/verify?state=TX&license_number=${DEMO_LICENCE}&name=loop%20${n}`, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`status ${res.status}: ${server.output().slice(-2000)}`);
        ids.push(...res.headers.get('verification-id')!.split(', '));
        if (++answers === killAfter) dead = server.child.kill('SIGKILL');
      } catch (err) {
        // Calls in flight when the server died fail; anything else fails the test.
        if (!dead) throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: LOOPS }, (_, n) => loop(n)));
  await server.exited;
  return { ids, answers };
}

// The load is the test's own, as fast as the server answers: no plan's request rate applies.
const NO_RATE = { RATE_LIMITS: 'off' };

describe('a server killed under load', () => {
  const dirs: string[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups) await c().catch(() => undefined);
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-crash-'));
    dirs.push(dir);
    return dir;
  };

  /** The ids a restarted server does not find (a journal a crash left is stored as it starts). */
  async function missingAfterRestart(env: Record<string, string>, key: string, ids: string[]) {
    const server = await startServer(env);
    try {
      const missing: string[] = [];
      for (const id of ids) {
        const res = await fetch(`${server.url}/api/v1/verifications/${id}`, { headers: { authorization: `Bearer ${key}` } });
        const record = res.status === 200 ? ((await res.json()) as { data: { id: string } }).data : undefined;
        if (record?.id !== id) missing.push(`${id}: ${res.status}`);
      }
      return missing;
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }

  it('when the embedded default (PGlite) is killed then every answer a client received has its record', { timeout: 180_000 }, async () => {
    const dataDir = tempDir();
    const server = await startServer({ DATA_DIR: dataDir, ...NO_RATE });
    cleanups.push(async () => void server.child.kill('SIGKILL'));
    for (let i = 0; i < 100 && !/Bearer lvs_live_/.test(server.output()); i++) await new Promise((r) => setTimeout(r, 50));
    const key = /Bearer (lvs_live_[A-Za-z0-9_-]{32})/.exec(server.output())![1];
    const { ids, answers } = await loadUntilKilled(server, key, 400);
    expect(answers).toBeGreaterThanOrEqual(400);
    // The records went through the journal beside the store (docs/verdicts.md), which the restart stores.
    expect(fs.readdirSync(path.join(dataDir, 'verifications.journal')).filter((f) => f.endsWith('.jsonl')).length).toBeGreaterThan(0);
    expect(await missingAfterRestart({ DATA_DIR: dataDir, ...NO_RATE }, key, ids)).toEqual([]);
  });

  it.runIf(havePostgres)('when a server on PostgreSQL is killed then every answer a client received has its record', { timeout: 180_000 }, async () => {
    const schema = await postgresSchema();
    cleanups.push(() => schema.drop());
    const store = await openStore({ DATABASE_URL: schema.url, DATABASE_POOL_SIZE: 2 });
    const key = (await (await sideOf(store)).accounts.createAccount({ email: 'crash@example.com', plan: 'enterprise' })).key.key;
    await store.close();
    const env = { DATA_DIR: tempDir(), DATABASE_URL: schema.url, ...NO_RATE };
    const server = await startServer(env);
    cleanups.push(async () => void server.child.kill('SIGKILL'));
    const { ids, answers } = await loadUntilKilled(server, key, 400);
    expect(answers).toBeGreaterThanOrEqual(400);
    expect(await missingAfterRestart(env, key, ids)).toEqual([]);
  });
});
