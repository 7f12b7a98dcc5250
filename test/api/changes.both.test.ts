import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importsOf, refreshOf } from '../../src/compose/index.js';
import { clockOf } from '../../src/domain/clock.js';
import { importFolder } from '../../src/ingest/load.js';
import { IMPORT_RUNS } from '../../src/ingest/import/import-events.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { refresh } from '../../src/ingest/refresh/refresh.js';
import { resolveFormat } from '../../src/ingest/sources/index.js';
import { ChangeFeed } from '../../src/modules/changes/changes.schemas.js';
import { files, fixture, testApp, testGraph, testStore, useGraphAndStore } from '../helpers/graph.js';
import { body, errorDetail, validationErrors } from '../helpers/http.js';
import { TX_FEED_SNAPSHOTS, folderWith, tempFile, txRow } from '../helpers/source-files.js';

// The change feed over real refreshes of TX snapshots written from the TREC layout.
const { first: snapshot1, second: snapshot2 } = TX_FEED_SNAPSHOTS;

describe('the change feed', () => {
  let graph: GraphAdapters;
  let side: Awaited<ReturnType<typeof testStore>>;
  let app: App;
  let key: string;
  // The service's clock: the real time, unless a test pins it.
  let pinned: Date | undefined;
  const rejectsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-changes-'));
  const ingest = (text: string, snapshot: string, repo = refreshOf(graph, files, side.clock, side.changes.log)) => {
    const file = tempFile('tx.csv', `${text}\n`);
    return refresh(repo, { files: [file], format: resolveFormat(file), snapshot, rejectsDir });
  };
  const feed = async (query = '') => body(await request(app).get(`/api/v1/licensees/changes${query}`).set('Authorization', `Bearer ${key}`), ChangeFeed);
  const all = async (query = '') => {
    const out = [];
    let page = await feed(`?limit=1000${query}`);
    out.push(...page.data);
    while (page.has_more) {
      page = await feed(`?limit=1000&cursor=${page.next_cursor}`);
      out.push(...page.data);
    }
    return out;
  };

  beforeAll(async () => {
    ({ graph } = await testGraph());
    side = await testStore({}, undefined, clockOf(() => pinned ?? new Date()));
    app = testApp(graph, side) as unknown as App;
    key = (await side.accounts.createAccount({ email: 'feed@example.com', plan: 'enterprise' })).key.key;
  });
  afterAll(async () => {
    await graph?.close();
    await side?.store.close();
  });

  it('when a state is first loaded then the feed holds one summary event; the next snapshot gives one event per change, with old and new values', async () => {
    expect(await feed()).toEqual({ data: [], next_cursor: null, has_more: false });
    await ingest(snapshot1, '2026-09-01');
    const first = await all();
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ type: 'state_loaded', state: 'TX', license_number: null, new: { credentials: 5, relationships: 2 }, snapshot_date: '2026-09-01', source: 'tx-trec' });

    await ingest(snapshot2, '2026-10-01');
    const events = (await all()).slice(1);
    const summary = events.map((e) => [e.type, e.license_number, e.old, e.new]);
    expect(summary).toEqual(
      expect.arrayContaining([
        ['license_added', '4-SA', null, expect.objectContaining({ status: 'Active', full_name: 'FRESH AGENT' })],
        ['status_changed', '100-B', { status: 'Active', status_normalized: 'active' }, { status: 'Inactive', status_normalized: 'inactive' }],
        ['expiration_changed', '3-SA', { expiration_date: '2027-01-31' }, { expiration_date: '2029-01-31' }],
        ['left_source', '2-SA', { status: 'Active', status_normalized: 'active' }, { status: 'Not in source file', status_normalized: 'inactive', left_source_on: '2026-10-01' }],
      ]),
    );
    const supervision = events.filter((e) => e.type.startsWith('supervision_')).map((e) => [e.type, e.license_number, e.relationship!.supervisor_license_number, e.relationship!.effective_from, e.relationship!.effective_to]);
    expect(supervision.sort()).toEqual(
      [
        ['supervision_ended', '1-SA', '100-B', '2020-03-01', '2026-09-15'],
        ['supervision_ended', '2-SA', '100-B', '2021-04-01', '2026-10-01'],
        ['supervision_started', '1-SA', '200-B', '2026-09-15', null],
        ['supervision_transferred', '1-SA', '200-B', '2026-09-15', null],
      ].sort(),
    );
    // The move from 100-B to 200-B is told once more, naming both relationships and their events.
    const moved = events.find((e) => e.type === 'supervision_transferred')!;
    const ended = events.find((e) => e.type === 'supervision_ended' && e.license_number === '1-SA')!;
    const started = events.find((e) => e.type === 'supervision_started')!;
    expect(moved.transfer).toEqual({ from: ended.relationship, to: started.relationship, gap_days: 0, ended_event_id: ended.id, started_event_id: started.id });
    expect(moved.transfer!.from).toMatchObject({ supervisor_license_number: '100-B', effective_from: '2020-03-01', effective_to: '2026-09-15' });
    expect(events.filter((e) => e.type !== 'supervision_transferred').every((e) => e.transfer === null && e.bulk_move === null)).toBe(true);
    expect(events).toHaveLength(8);
    // Ids sort in feed order and are unique; a run's events are numbered once each, in a row.
    const ids = (await all()).map((e) => e.id);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const seqs = ids.slice(1).map((id) => Number(id.slice(4)));
    expect(seqs.at(-1)! - seqs[0]).toBe(seqs.length - 1);

    // The same snapshot again: nothing changed, nothing recorded.
    await ingest(snapshot2, '2026-10-01');
    expect(await all()).toHaveLength(9);
    // A rename and a return to the source.
    await ingest(`${snapshot2.replace('FRESH AGENT', 'RENAMED AGENT')}\n${txRow({ type: 'Sales Agent', number: '2-SA', name: 'LEAVING AGENT' })}`, '2026-10-08');
    const latest = (await all()).slice(9).map((e) => [e.type, e.license_number]);
    expect(latest).toEqual(expect.arrayContaining([['name_changed', '4-SA'], ['returned_to_source', '2-SA'], ['status_changed', '2-SA']]));
  });

  it('when the feed is paged then cursors go on where the last page ended, filters hold, and nothing is seen twice', async () => {
    const everything = await all();
    const seen: string[] = [];
    let page = await feed('?limit=3');
    seen.push(...page.data.map((e) => e.id));
    expect(page.has_more).toBe(true);
    while (page.has_more) {
      page = await feed(`?limit=3&cursor=${page.next_cursor}`);
      seen.push(...page.data.map((e) => e.id));
    }
    expect(seen).toEqual(everything.map((e) => e.id));
    // At the end the cursor stays where it is, to poll for what comes next.
    const end = await feed(`?cursor=${page.next_cursor}`);
    expect(end).toEqual({ data: [], next_cursor: page.next_cursor, has_more: false });
    // A cursor as clients hold it (base64url of `seq:5`, written out): the events after the fifth.
    const held = await feed('?limit=1000&cursor=c2VxOjU');
    expect(held.data.map((e) => e.id)).toEqual(everything.filter((e) => e.id > 'chg_000000000005').map((e) => e.id));
    expect(held.data.length).toBeGreaterThan(0);

    expect((await all('&types=status_changed,left_source')).map((e) => e.type).sort()).toEqual(everything.filter((e) => ['status_changed', 'left_source'].includes(e.type)).map((e) => e.type).sort());
    expect(await all('&state=FL')).toEqual([]);
    expect((await all('&state=tx')).length).toBe(everything.length);
    expect(await all(`&since=${new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)}`)).toEqual([]);
  });

  it('when types names licence_added, the old name of license_added, then it filters license_added events until 2027-06-30, and is unknown after', async () => {
    const auth = { Authorization: `Bearer ${key}` };
    const added = await all('&types=license_added');
    expect(added.length).toBeGreaterThan(0);
    expect(added.every((e) => e.type === 'license_added')).toBe(true);
    try {
      pinned = new Date('2027-06-30T23:59:00Z');
      expect(await all('&types=licence_added')).toEqual(added);
      expect(await all('&types=status_changed,licence_added')).toEqual(await all('&types=license_added,status_changed'));
      pinned = new Date('2027-07-01T00:00:00Z');
      const [refused] = validationErrors(await request(app).get('/api/v1/licensees/changes?types=status_changed,licence_added').set(auth));
      expect(refused.loc).toEqual(['query', 'types']);
      expect(refused.msg).toMatch(/^unknown event types licence_added; known: license_added, status_changed, /);
    } finally {
      pinned = undefined;
    }
  });

  it('when the query is wrong then 422 says which part; a cursor older than the events kept is 410', async () => {
    const auth = { Authorization: `Bearer ${key}` };
    const bad = async (q: string) => validationErrors(await request(app).get(`/api/v1/licensees/changes${q}`).set(auth)).map((d) => d.loc.join('.'));
    expect(await bad('?cursor=not-a-cursor')).toEqual(['query.cursor']);
    const { next_cursor } = await feed('?limit=1');
    expect(await bad(`?cursor=${next_cursor}&since=2026-01-01`)).toEqual(['query.since']);
    expect(await bad('?types=status_changed,bogus')).toEqual(['query.types']);
    expect(await bad('?limit=1001')).toEqual(['query.limit']);
    expect(await bad('?since=2026-02-30')).toEqual(['query.since']);

    // Everything detected before tomorrow is past a retention of one day, seen from two days on.
    const later = { now: () => new Date(Date.now() + 2 * 86_400_000), today: () => '' };
    const { createChangesService } = await import('../../src/modules/changes/changes.service.js');
    const { createChangesRepo } = await import('../../src/modules/changes/changes.repo.js');
    await createChangesService(createChangesRepo(side.store), later, 1).prune();
    const gone = await request(app).get(`/api/v1/licensees/changes?cursor=${next_cursor}`).set(auth);
    expect(errorDetail(gone, 410)).toMatch(/older than the 400 days/);
    expect(await feed()).toMatchObject({ data: [] });
  });
});

describe('change events and the graph after a crash', () => {
  const t = useGraphAndStore();
  const rejectsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-changes-'));
  const events = async () => t.side.store.query<{ type: string; committed: boolean }>('SELECT type, seq IS NOT NULL AS committed FROM change_events ORDER BY n');
  const run = (text: string, snapshot: string, repo: ReturnType<typeof refreshOf>, eventsPart?: number) => {
    const file = tempFile('tx.csv', `${text}\n`);
    return refresh(repo, { files: [file], format: resolveFormat(file), snapshot, rejectsDir, eventsPart });
  };

  it('when a refresh fails after staging its events then none are kept; when it lands but dies before committing them, the next start commits them', async () => {
    const repo = refreshOf(t.graph, files, t.side.clock, t.side.changes.log);
    await run(snapshot1, '2026-09-01', repo);
    const base = (await events()).length;

    // The graph unit fails at its last step, after the events were staged.
    await expect(run(snapshot2, '2026-10-01', { ...repo, finish: async () => Promise.reject(new Error('killed')) })).rejects.toThrow(/killed/);
    expect(await events()).toHaveLength(base);
    expect(await t.side.store.query("SELECT 1 FROM change_runs WHERE status = 'staged'")).toEqual([]);

    // The graph unit lands, and the process dies before the events are committed.
    const log = t.side.changes.log;
    let staged = false;
    const dying: typeof log = {
      ...log,
      stage: async (r, e, from) => ((staged = true), log.stage(r, e, from)),
      recover: async (s, landed) => (staged ? Promise.reject(new Error('killed')) : log.recover(s, landed)),
    };
    // (A new licence: the failed run's writes stay in an in-memory LadybugDB graph, which has no rollback.)
    await run(`${snapshot2}\n${txRow({ type: 'Sales Agent', number: '9-SA', name: 'NINTH AGENT' })}`, '2026-10-02', refreshOf(t.graph, files, t.side.clock, dying));
    expect((await events()).slice(base).every((e) => !e.committed)).toBe(true);
    expect((await events()).length).toBeGreaterThan(base);
    // What the next start does (main.ts).
    await t.side.changes.recoverAll((source, runId) => repo.landedRun(source, runId));
    expect((await events()).slice(base).every((e) => e.committed)).toBe(true);
    expect(await t.side.store.query("SELECT 1 FROM change_runs WHERE status = 'staged'")).toEqual([]);
  });

  it('when a run stages its events in parts then a run that lands has each once, numbered in a row, and a failure keeps none of them', async () => {
    // After the test above: TX holds the second snapshot and 9-SA.
    const base = (await events()).length;
    const parts: number[] = [];
    const log = t.side.changes.log;
    const counted: typeof log = { ...log, stage: async (r, e, from) => (parts.push(e.length), log.stage(r, e, from)) };
    const repo = refreshOf(t.graph, files, t.side.clock, counted);

    await run(snapshot1, '2026-11-01', repo, 2);
    expect(parts.length).toBeGreaterThan(2);
    const landed = await t.side.store.query<{ n: number; seq: string; type: string; license_number: string | null }>(
      'SELECT n, seq, type, license_number FROM change_events WHERE seq IS NOT NULL ORDER BY seq OFFSET $1',
      [base],
    );
    expect(landed).toHaveLength(parts.reduce((a, b) => a + b, 0));
    expect(landed.map((e) => e.n)).toEqual(landed.map((_, i) => i));
    expect(Number(landed.at(-1)!.seq) - Number(landed[0].seq)).toBe(landed.length - 1);
    expect(landed.every((e) => e.license_number)).toBe(true);
    expect(new Set(landed.map((e) => e.type))).toEqual(new Set(['left_source', 'returned_to_source', 'status_changed', 'expiration_changed', 'supervision_started', 'supervision_ended', 'supervision_transferred']));
    // A transfer staged in a later part than its events still names them once published.
    const [moved] = await t.side.store.query<{ transfer: { ended_seq: number; started_seq: number } }>("SELECT transfer FROM change_events WHERE type = 'supervision_transferred' AND seq IS NOT NULL ORDER BY seq DESC LIMIT 1");
    const named = await t.side.store.query<{ type: string }>('SELECT type FROM change_events WHERE seq = ANY($1::bigint[]) ORDER BY seq', [[moved.transfer.ended_seq, moved.transfer.started_seq]]);
    expect(named.map((e) => e.type).sort()).toEqual(['supervision_ended', 'supervision_started']);

    parts.length = 0;
    await expect(run(snapshot2, '2026-11-08', { ...repo, finish: async () => Promise.reject(new Error('killed')) }, 2)).rejects.toThrow(/killed/);
    expect(parts.length).toBeGreaterThan(2);
    expect(await events()).toHaveLength(landed.length + base);
    expect(await t.side.store.query("SELECT 1 FROM change_runs WHERE status = 'staged'")).toEqual([]);
  });
});

// Canonical imports (npm run import) record events too: a first load as one summary per state,
// then one event per change, each batch's events committed once its unit has landed.
const CREDENTIALS_HEADER = fs.readFileSync(path.join(fixture('small'), 'credentials.csv'), 'utf8').split('\n')[0];
const RELATIONSHIPS_HEADER = 'supervisor_state,supervisor_license_number,affiliate_state,affiliate_license_number,affiliate_role,relationship_type,effective_from,effective_to,source';
const credential = (number: string, type: string, status: string, name: string, expires: string) =>
  `TX,${number},${type},,${status},,person,${name},,,,,,2015-01-01,${expires},,,,,,,,,,,fixture,2026-11-20,2026-11-20T06:00:00Z,`;

describe('change events of canonical imports', () => {
  const t = useGraphAndStore();
  const published = async () =>
    (await t.side.store.query<{ type: string; license_number: string | null; new_values: Record<string, unknown> | null; relationship: { supervisor_license_number: string } | null; state: string }>(
      'SELECT type, license_number, new_values, relationship, state FROM change_events WHERE seq IS NOT NULL ORDER BY seq',
    ));
  const staged = () => t.side.store.query("SELECT 1 FROM change_runs WHERE status = 'staged'");

  it('when a folder is imported into an empty t.graph then each state gets one state_loaded; a later import gives one event per change', async () => {
    const repo = importsOf(t.graph, files, t.side.clock, t.side.changes.log);
    const summary = await importFolder(repo, fixture('small'));
    const loaded = await published();
    expect(loaded.map((e) => [e.type, e.state, e.license_number]).sort()).toEqual([['state_loaded', 'NY', null], ['state_loaded', 'TX', null]]);
    const total = (key: string) => loaded.reduce((n, e) => n + Number(e.new_values![key]), 0);
    expect(total('credentials')).toBe(summary.credentials);
    expect(total('relationships')).toBe(summary.relationships);

    await importFolder(
      repo,
      folderWith({
        'credentials.csv': [
          CREDENTIALS_HEADER,
          credential('763828-SA', 'salesperson', 'Active', 'ZOE SMITH', '2028-07-31'),
          credential('763831-SA', 'salesperson', 'Active', 'NEW AGENT', '2028-01-31'),
          credential('200001-B', 'broker', 'Active', 'DANA QUINN-SMITH', '2027-02-28'),
        ].join('\n') + '\n',
        'relationships.csv': [
          RELATIONSHIPS_HEADER,
          'TX,100001-B,TX,763827-SA,salesperson,sponsoring_broker,2020-06-01,2026-11-20,fixture',
          'TX,200001-B,TX,763831-SA,salesperson,sponsoring_broker,2026-11-20,,fixture',
          'TX,300001-B,TX,763828-SA,salesperson,sponsoring_broker,2018-01-01,2026-07-31,fixture',
        ].join('\n') + '\n',
      }),
    );
    const changes = (await published()).slice(2).map((e) => [e.type, e.license_number, e.relationship?.supervisor_license_number ?? null]);
    expect(changes.sort()).toEqual(
      [
        ['status_changed', '763828-SA', null],
        ['expiration_changed', '763828-SA', null],
        ['license_added', '763831-SA', null],
        ['name_changed', '200001-B', null],
        ['supervision_ended', '763827-SA', '100001-B'],
        ['supervision_started', '763831-SA', '200001-B'],
      ].sort(),
    );
    expect(await staged()).toEqual([]);
    // No mark is left behind once the events are committed.
    expect(await repo.landedRun('00000000-0000-4000-8000-000000000000')).toBe(false);
  });

  it('when an import unit fails after staging then its events are discarded; when it lands and the process dies before committing, the next start commits them', async () => {
    const before = (await published()).length;
    const folder = (name: string, expires: string) => folderWith({ 'credentials.csv': `${CREDENTIALS_HEADER}\n${credential('763831-SA', 'salesperson', 'Active', name, expires)}\n` });
    const repo = importsOf(t.graph, files, t.side.clock, t.side.changes.log);
    // The unit fails at its last step, after the events were staged.
    const failing: typeof repo = {
      ...repo,
      run: (fn) =>
        repo.run((unit) =>
          fn({ ...unit, upsertCredentials: (rows, context, events) => unit.upsertCredentials(rows, context, events && { ...events, stage: async (t, r) => (await events.stage(t, r), Promise.reject(new Error('killed'))) }) }),
        ),
    };
    await expect(importFolder(failing, folder('NEW AGENT', '2029-01-31'))).rejects.toThrow(/killed/);
    expect(await published()).toHaveLength(before);
    expect(await staged()).toEqual([]);

    // The unit lands; the process dies before the events are committed (and settles nothing).
    const log = t.side.changes.log;
    const dying: typeof log = { ...log, commit: async () => Promise.reject(new Error('killed')), recover: async () => undefined };
    await expect(importFolder(importsOf(t.graph, files, t.side.clock, dying), folder('RENAMED AGENT', '2030-01-31'))).rejects.toThrow(/killed/);
    expect(await staged()).toHaveLength(1);
    // What the next start does (main.ts).
    await t.side.changes.recoverAll((source, runId) => (source === IMPORT_RUNS ? repo.landedRun(runId) : Promise.resolve(false)));
    expect(await staged()).toEqual([]);
    expect((await published()).slice(before).map((e) => [e.type, e.license_number, e.new_values])).toEqual(
      expect.arrayContaining([['name_changed', '763831-SA', { full_name: 'RENAMED AGENT', business_name: null }]]),
    );
  });
});
