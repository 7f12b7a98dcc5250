import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/store/postgres-store.js';
import { TEST_ENGINE, emptyGraph, suiteNeo4j } from '../helpers/graph.js';
import { getJson, runScript, spawnScript, startServer, type Running } from '../helpers/processes.js';
import { TX_HEADER, txRow } from '../helpers/source-files.js';
import { postgresAvailable, postgresSchema, sideOf } from '../helpers/stores.js';

// A real `npm run ingest` process killed (SIGKILL) once it has staged its change events, that is
// while its graph unit lands (LadybugDB's file swap, Neo4j's publish), on the suite's engine: the next start settles the run, and the feed then agrees with the
// graph, whichever side of the graph's commit the kill fell on. The side store is PostgreSQL, so
// this test can watch the run from outside the process.
// Fewer on Neo4j, whose refresh of them takes longer: its window (the publish) is as easy to hit.
const AGENTS = TEST_ENGINE === 'neo4j' ? 4_000 : 15_000;
const snapshot = (inactive: boolean) =>
  [TX_HEADER, ...Array.from({ length: AGENTS }, (_, i) => txRow({ type: 'Sales Agent', number: `${700000 + i}-SA`, name: `KILL AGENT${i}`, status: inactive ? 'Inactive' : 'Active' }))].join('\n') + '\n';

const havePostgres = await postgresAvailable();

describe.skipIf(!havePostgres)('a refresh process killed mid-run', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-kill-'));
  let schema: Awaited<ReturnType<typeof postgresSchema>>;
  let server: Running | undefined;
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await schema?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('when the process dies after staging its events then the next start leaves the feed agreeing with the graph, and a rerun records each change once', { timeout: 400_000 }, async () => {
    schema = await postgresSchema();
    const graphEnv: Record<string, string> = TEST_ENGINE === 'neo4j' ? { NEO4J_URI: suiteNeo4j().uri, NEO4J_USER: suiteNeo4j().user, NEO4J_PASSWORD: suiteNeo4j().password } : {};
    if (TEST_ENGINE === 'neo4j') await (await emptyGraph('neo4j')).close();
    const env = { DATA_DIR: path.join(dir, 'data'), DATABASE_URL: schema.url, DEMO_DATA: 'false', ...graphEnv };
    const active = path.join(dir, 'active.csv');
    const inactive = path.join(dir, 'inactive.csv');
    fs.writeFileSync(active, snapshot(false));
    fs.writeFileSync(inactive, snapshot(true));
    const first = runScript('src/cli/ingest.ts', ['--format', 'trec-csv', '--snapshot', '2026-09-01', active], env);
    expect(first.status, first.stderr).toBe(0);

    const watch = new pg.Client({ connectionString: schema.url });
    await watch.connect();
    const staged = async () => Number((await watch.query("SELECT count(*) AS n FROM change_runs WHERE status = 'staged'")).rows[0].n);
    // Each try's snapshot turns every agent's status over; the process is killed the moment its
    // events are staged. A machine fast enough to finish a try first gets another.
    let killed: { file: string; snapshot: string } | undefined;
    for (let attempt = 0; attempt < 5 && !killed; attempt++) {
      const file = attempt % 2 ? active : inactive;
      const date = `2026-10-0${attempt + 1}`;
      const child = spawnScript('src/cli/ingest.ts', ['--format', 'trec-csv', '--snapshot', date, file], env);
      let done = false;
      const exited = new Promise<void>((resolve) =>
        child.on('exit', () => {
          done = true;
          resolve();
        }),
      );
      while (!done) {
        if ((await staged()) > 0) {
          child.kill('SIGKILL');
          killed = { file, snapshot: date };
          break;
        }
        await new Promise((r) => setTimeout(r, 5));
      }
      await exited;
    }
    expect(killed, 'the refresh was never caught between staging and committing').toBeDefined();
    expect(await staged()).toBe(1);

    // The next start settles the staged run before it serves.
    const store = await openPostgres(schema.url, 2);
    const { key } = await (await sideOf(store)).accounts.createAccount({ email: 'kill@example.com', plan: 'enterprise' });
    await store.close();
    server = await startServer(env);
    expect(await staged()).toBe(0);
    const get = async (query: string) => (await getJson(`${server!.url}${query}`, key.key)).body;
    const counts = async () => {
      let page = await get('/api/v1/licensees/changes?limit=1000&types=status_changed');
      let events = page.data.length;
      while (page.has_more) {
        page = await get(`/api/v1/licensees/changes?limit=1000&cursor=${page.next_cursor}`);
        events += page.data.length;
      }
      return { events, inactive: (await get('/api/v1/licensees?state=TX&status=inactive&per_page=1')).meta.total as number };
    };
    // Whichever side of the graph's commit the kill fell on, every status change in the graph has
    // its event and no event is for a change that did not land: one event per agent per flip.
    const after = await counts();
    const flips = after.events / AGENTS;
    expect(Number.isInteger(flips), `${after.events} events`).toBe(true);
    expect(after.inactive).toBe(flips % 2 === 1 ? AGENTS : 0);

    // The killed snapshot again, to the end (through the running server): each change recorded once.
    const landed = after.inactive === (killed!.file === inactive ? AGENTS : 0);
    const rerun = runScript('src/cli/ingest.ts', ['--format', 'trec-csv', '--snapshot', killed!.snapshot, killed!.file], env);
    expect(rerun.status, rerun.stderr).toBe(0);
    const final = await counts();
    expect(final.inactive).toBe(killed!.file === inactive ? AGENTS : 0);
    expect(final.events).toBe(after.events + (landed ? 0 : AGENTS));
    await watch.end();
  });
});
