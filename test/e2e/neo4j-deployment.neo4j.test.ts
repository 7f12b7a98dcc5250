import fs from 'node:fs';
import path from 'node:path';
import neo4j from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEEDS, emptyGraph, suiteNeo4j } from '../helpers/graph.js';
import { tempDir } from '../helpers/local-neo4j.js';
import { LicenseeListResponse } from '../../src/modules/licensees/licensees.schemas.js';
import { getJson, runScript, runScriptAsync, spawnScript, startServer, type Running } from '../helpers/processes.js';
import { TX_HEADER, txAgentsFile, txRow } from '../helpers/source-files.js';
import { postgresAvailable, postgresSchema, POSTGRES_URL } from '../helpers/stores.js';

// The production shape on the suite's real Neo4j: the ingest command killed in the middle of a
// refresh (docs/graph.md, Versions), and two API processes on one Neo4j and one PostgreSQL.
const target = suiteNeo4j();
const GRAPH_ENV = { NEO4J_URI: target.uri, NEO4J_USER: target.user, NEO4J_PASSWORD: target.password, DEMO_DATA: 'false' };
const work = tempDir('lvs-neo4j-e2e-');
afterAll(() => work.remove());

const txFile = (name: string, n: number, status: string) => txAgentsFile(work.dir, name, n, status);

const wipe = async () => (await emptyGraph('neo4j')).close();
const countNow = async (query: string) => {
  const driver = neo4j.driver(target.uri, neo4j.auth.basic(target.user, target.password));
  try {
    return (await driver.executeQuery(query)).records[0].get('n').toNumber() as number;
  } finally {
    await driver.close();
  }
};

describe('the ingest command on Neo4j', () => {
  const env = { ...GRAPH_ENV, DATA_DIR: path.join(work.dir, 'ingest') };
  const ingest = (...args: string[]) => runScript('src/cli/ingest.ts', [...args, '--json'], env, 300_000);
  beforeAll(wipe);

  it('when a run is killed while it writes its versions then the earlier snapshot is served intact, and the next run undoes them and completes', async () => {
    const first = ingest('--snapshot', '2026-10-01', txFile('s1.csv', 200, 'Active'));
    expect(first.status, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ inserted: 201, edges_opened: 200 });

    // Snapshot 2 changes every agent; the run is killed once it has committed versions readers do not see.
    const big = txFile('s2.csv', 4000, 'Inactive');
    const child = spawnScript('src/cli/ingest.ts', ['--snapshot', '2026-11-01', big], env);
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    const driver = neo4j.driver(target.uri, neo4j.auth.basic(target.user, target.password));
    const count = async (query: string) => (await driver.executeQuery(query)).records[0].get('n').toNumber() as number;
    // What readers see: the versions of the published generation (docs/graph.md).
    const published = "MATCH (s:Snapshot {id: 'graph'}) WITH s.generation AS g MATCH (c:LicenseCredential|Superseded) WHERE coalesce(c.vf, 0) <= g AND coalesce(c.vt, g + 1) > g";
    try {
      const pending = () => count("MATCH (s:Snapshot {id: 'graph'}) WHERE s.holder IS NOT NULL MATCH (c:Versioned) WHERE c.vf > s.generation RETURN count(c) AS n");
      let seen = false;
      for (let i = 0; i < 1200 && !seen && child.exitCode === null; i++) {
        seen = (await pending()) > 0;
        if (!seen) await new Promise((r) => setTimeout(r, 50));
      }
      expect(seen).toBe(true);
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      // Readers still see snapshot 1 whole, beside the killed run's versions.
      expect(await pending()).toBeGreaterThan(0);
      expect(await count(`${published} AND c.state = 'TX' RETURN count(c) AS n`)).toBe(201);
      // A status alone changed is a value pending on the published node (overlay-credentials.cypher).
      expect(await count(`${published} AND CASE WHEN c.pg <= g THEN c.p_status_normalized ELSE c.status_normalized END = 'inactive' RETURN count(c) AS n`)).toBe(0);
    } finally {
      await driver.close();
    }

    // The same snapshot 1 again is a no-op: the killed run left nothing behind in the graph.
    const check = ingest('--snapshot', '2026-10-01', path.join(work.dir, 's1.csv'));
    expect(check.status, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ inserted: 0, updated: 0, unchanged: 201, left_source: 0, edges_opened: 0, edges_closed: 0 });
    // What the killed run left pending went with its versions (else this run's publish would show it).
    expect(await countNow('MATCH (c:Pending) RETURN count(c) AS n')).toBe(0);

    const again = ingest('--snapshot', '2026-11-01', big);
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ rows_read: 4001, inserted: 3800, updated: 200, unchanged: 1, edges_opened: 3800 });
    // The command waited for readers, then made the pending statuses the credentials' own.
    expect(await countNow('MATCH (c:Pending) RETURN count(c) AS n')).toBe(0);
    expect(await countNow("MATCH (c:LicenseCredential {state: 'TX', status_normalized: 'inactive'}) RETURN count(c) AS n")).toBe(4000);
  }, 600_000);
});

const postgresUp = await postgresAvailable();
describe.skipIf(!postgresUp)(`two API processes on one Neo4j and one PostgreSQL${postgresUp ? '' : `: skipped, PostgreSQL at ${POSTGRES_URL} does not answer`}`, () => {
  let schema: Awaited<ReturnType<typeof postgresSchema>>;
  let env: Record<string, string>;
  const servers: Running[] = [];
  beforeAll(async () => {
    await wipe();
    schema = await postgresSchema();
    env = { ...GRAPH_ENV, DATABASE_URL: schema.url };
    const imported = runScript('src/cli/import.ts', [DEMO_SEEDS, '--json'], { ...env, DATA_DIR: path.join(work.dir, 'cli') });
    expect(imported.status, imported.stderr).toBe(0);
    // These tests are about the quota and the data, not shedding: a call waits for its turn rather
    // than answering 503 when the machine is busy (a full suite's two forks beside both processes).
    const patient = { REQUEST_WAIT_TIMEOUT_MS: '60000', NEO4J_ACQUISITION_TIMEOUT_MS: '60000' };
    // The free plan's rate leaves its quota to be tested; the starter's window (20 s) outlasts its test's calls.
    const rates = { RATE_LIMITS: 'free=100:100,starter=1:20' };
    for (const name of ['a', 'b']) servers.push(await startServer({ ...env, ...patient, ...rates, DATA_DIR: path.join(work.dir, name) }));
  });
  afterAll(async () => {
    for (const s of servers) {
      s.child.kill('SIGTERM');
      await s.exited;
    }
    await schema?.drop();
  });

  const admin = (...args: string[]) => {
    const run = runScript('src/cli/admin.ts', [...args, '--json'], { ...env, DATA_DIR: path.join(work.dir, 'cli') });
    expect(run.status, run.stderr).toBe(0);
    return JSON.parse(run.stdout);
  };
  const get = (server: Running, url: string, key: string) => getJson(`${server.url}${url}`, key);

  it('when a state is refreshed through the command line then both answer the new data straight after', async () => {
    const { key } = admin('accounts', 'create', '--email', 'scale@example.com', '--plan', 'growth');
    const [a, b] = servers;
    for (const s of servers) expect((await get(s, '/api/v1/licensees/TX/406526-SA', key.key)).status).toBe(200);

    const file = path.join(work.dir, 'tx-refresh.csv');
    fs.writeFileSync(file, `${TX_HEADER}\n${txRow({ type: 'Broker Individual', number: '777-B', name: 'REFRESHED BROKER' })}\n`);
    const refreshed = runScript('src/cli/ingest.ts', ['--snapshot', '2026-11-20', '--partial', '--timings', file, '--json'], { ...env, DATA_DIR: path.join(work.dir, 'cli') });
    expect(refreshed.status, refreshed.stderr).toBe(0);
    const summary = JSON.parse(refreshed.stdout);
    expect(summary).toMatchObject({ source: 'tx-trec', inserted: 1 });
    // --timings on Neo4j: the run's steps (writeSteps), its publish transaction and its reads, by query file.
    const times = new Map((summary.statements as { name: string; statements: number }[]).map((t) => [t.name, t.statements]));
    expect(times.get('refresh/record-run')).toBe(1);
    expect(times.get('engine/neo4j/refresh/existing-credentials')).toBeGreaterThan(0);
    expect(times.get('engine/neo4j/refresh/create-credentials')).toBeGreaterThan(0);

    // The TX demo records made way for the real import; neither process answers from before it.
    for (const s of [b, a]) {
      expect((await get(s, '/api/v1/licensees/TX/777-B', key.key)).body.data).toMatchObject({ full_name: 'REFRESHED BROKER' });
      expect((await get(s, '/api/v1/licensees/TX/406526-SA', key.key)).status).toBe(404);
      const coverage = await get(s, '/api/v1/coverage', key.key);
      expect(coverage.body.states.find((st: { state: string }) => st.state === 'TX').record_count).toBe(1);
    }
  });

  it('when a refresh renames every agent of a state then both come to search the new names, and no answer meanwhile mixes the two snapshots or comes up short', async () => {
    const { key } = admin('accounts', 'create', '--email', 'search@example.com', '--plan', 'enterprise');
    const N = 600;
    const snapshot = (file: string, first: string) => {
      const rows = [TX_HEADER, txRow({ type: 'Broker Individual', number: '1-B', name: 'TOP BROKER' })];
      for (let i = 0; i < N; i++) rows.push(txRow({ type: 'Sales Agent', number: `${100000 + i}-SA`, name: `${first} AGENT${i}`, related: '1-B', relatedStart: '01/02/2020 12:00:00 AM' }));
      fs.writeFileSync(path.join(work.dir, file), `${rows.join('\n')}\n`);
      return path.join(work.dir, file);
    };
    const refresh = (date: string, file: string) => runScriptAsync('src/cli/ingest.ts', ['--snapshot', date, file, '--json'], { ...env, DATA_DIR: path.join(work.dir, 'cli') }, 300_000);
    /** One search page, checked: a 503 says when to retry; a 200 is one whole snapshot of the term's agents. */
    const search = async (server: Running, term: string, page: number) => {
      const res = await fetch(`${server.url}/api/v1/licensees?state=TX&name=${term}&per_page=50&page=${page}`, { headers: { authorization: `Bearer ${key.key}` } });
      const body = (await res.json()) as { data: { full_name: string }[]; meta: { total: number } };
      if (res.status === 503) {
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        return undefined;
      }
      expect(res.status, JSON.stringify(body)).toBe(200);
      const { data, meta } = LicenseeListResponse.parse(body);
      expect([0, N]).toContain(meta.total);
      expect(data).toHaveLength(Math.max(0, Math.min(50, meta.total - (page - 1) * 50)));
      for (const l of data) expect(l.full_name).toContain(term.toUpperCase());
      return meta.total;
    };
    const servesOnly = async (term: string, gone: string) => {
      for (let i = 0; i < 300; i++) {
        const totals = await Promise.all(servers.flatMap((s) => [search(s, term, 1), search(s, gone, 1)]));
        if (totals.every((t, j) => t === (j % 2 ? 0 : N))) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`the servers did not come to serve ${term} without ${gone}`);
    };

    const first = await refresh('2026-11-21', snapshot('alpha.csv', 'ALPHA'));
    expect(first.status, first.stderr).toBe(0);
    await servesOnly('alpha', 'omega');

    const renamed = refresh('2026-11-22', snapshot('omega.csv', 'OMEGA'));
    let done = false;
    let answered = 0;
    void renamed.finally(() => (done = true));
    // Pages of both names from both processes while the refresh runs and publishes.
    while (!done) {
      const page = 1 + (answered % 13);
      const totals = await Promise.all(servers.flatMap((s) => [search(s, 'alpha', page), search(s, 'omega', page)]));
      answered += totals.filter((t) => t !== undefined).length;
    }
    const second = await renamed;
    expect(second.status, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ updated: N });
    expect(answered).toBeGreaterThan(0);
    await servesOnly('omega', 'alpha');
  }, 600_000);

  it('when a free key is used on both at once then exactly its quota is served and counted once', async () => {
    const { account, key } = admin('accounts', 'create', '--email', 'free@example.com', '--plan', 'free');
    const statuses: number[] = [];
    const unavailable: string[] = [];
    // 40 calls, 20 to each process, all at once, on a quota of 25. A call shed with 503 (a busy
    // machine) gives its unit back and is retried after its Retry-After, as a client would.
    await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        for (let attempt = 0; ; attempt++) {
          const res = await fetch(`${servers[i % 2].url}/api/v1/licensees/verify?state=FL&license_number=0556506`, { headers: { authorization: `Bearer ${key.key}` } });
          const body = await res.text();
          if (res.status !== 503 || attempt === 5) {
            statuses.push(res.status);
            return;
          }
          unavailable.push(body);
          await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
        }
      }),
    );
    if (unavailable.length) console.warn(`503 answers retried: ${unavailable.join(' | ')}`);
    expect(statuses.filter((s) => s === 200), statuses.join(' ')).toHaveLength(25);
    expect(statuses.filter((s) => s === 429), statuses.join(' ')).toHaveLength(15);
    // Both processes flush each second; the store then holds exactly the calls served.
    let usage: Record<string, any> = {};
    for (let i = 0; i < 100; i++) {
      usage = (await get(servers[i % 2], '/api/v1/account/usage', key.key)).body;
      if (usage.by_endpoint?.verifyLicense === 25) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(usage).toMatchObject({ plan: 'free', used: 25, remaining: 0, by_endpoint: { verifyLicense: 25 } });
    expect(account.plan).toBe('free');
  });

  it('when a starter key calls both in turn past its rate then together they serve its burst exactly (the count is in PostgreSQL) and refuse the rest with 429 naming the rate', async () => {
    const { key } = admin('accounts', 'create', '--email', 'rate@example.com', '--plan', 'starter');
    const answers: { status: number; limit?: string }[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await get(servers[i % 2], '/api/v1/licensees/verify?state=FL&license_number=0556506', key.key);
      answers.push({ status: res.status, limit: res.body.limit });
    }
    expect(answers.filter((a) => a.status === 200)).toHaveLength(20);
    expect(answers.filter((a) => a.status === 429 && a.limit === 'rate')).toHaveLength(20);
    for (const parity of [0, 1]) expect(answers.filter((a, i) => i % 2 === parity && a.status === 200).length).toBeGreaterThan(0);
  });
});
