import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { refreshOf } from '../../src/compose/index.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { splitStatements } from '../../src/graph/query-files.js';
import { openGraph } from '../../src/compose/graph.js';
import type { Neo4jEngine } from '../../src/graph/neo4j/engine.js';
import { neo4jRosterMarks } from '../../src/graph/neo4j/roster-marks.js';
import { neo4jVersions } from '../../src/graph/neo4j/versions.js';
import { refresh } from '../../src/ingest/refresh/refresh.js';
import { resolveFormat } from '../../src/ingest/sources/index.js';
import { AffiliationsResponse, RosterHistoryResponse } from '../../src/modules/relationships/relationships.schemas.js';
import { testConfig } from '../helpers/config.js';
import { TEST_ENGINE, files, suiteNeo4j, testApp, testGraph, testStore } from '../helpers/graph.js';
import { body, errorDetail, validationErrors } from '../helpers/http.js';
import { TX_HEADER, tempFile, txRow } from '../helpers/source-files.js';

// A broker's roster over time, from two TX snapshots whose rows date their relationships.
const broker = (number: string) => txRow({ type: 'Broker Individual', number, name: `BROKER ${number}` });
const agent = (number: string, related?: string, start?: string) => txRow({ type: 'Sales Agent', number, name: `AGENT ${number}`, related, relatedStart: start && `${start} 12:00:00 AM` });
const AGENTS = ['1-SA', '2-SA', '3-SA', '4-SA', '5-SA'];
const FIRST = [TX_HEADER, broker('10-B'), broker('20-B'), agent('1-SA', '10-B', '06/10/2025'), agent('2-SA', '10-B', '01/15/2026'), agent('3-SA', '20-B', '01/01/2024'), agent('4-SA', '10-B', '02/20/2026')];
const SECOND = [
  TX_HEADER, broker('10-B'), broker('20-B'),
  // 1-SA moves to 20-B on 2026-04-10; 2-SA is listed with no broker; 3-SA comes from 20-B; 5-SA is new.
  agent('1-SA', '20-B', '04/10/2026'), agent('2-SA'), agent('3-SA', '10-B', '05/05/2026'), agent('4-SA', '10-B', '02/20/2026'), agent('5-SA', '10-B', '05/20/2026'),
];

describe('a broker\'s roster history', () => {
  let graph: GraphAdapters;
  let side: Awaited<ReturnType<typeof testStore>>;
  let app: App;
  let auth: Record<string, string>;
  const rejectsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-roster-history-'));
  const ingest = (lines: string[], snapshot: string) => {
    const file = tempFile('tx.csv', `${lines.join('\n')}\n`);
    return refresh(refreshOf(graph, files, side.clock, side.changes.log), { files: [file], format: resolveFormat(file), snapshot, rejectsDir });
  };
  const history = async (query: string, number = '10-B') => body(await request(app).get(`/api/v1/licensees/TX/${number}/roster-history${query}`).set(auth), RosterHistoryResponse);
  /** Neo4j: the day counts a history of no filter sums (roster-days.cypher), as readers of the published generation see them. */
  const rosterDays = () => graph.engine.read('MATCH (d:RosterDay) WHERE d.vt IS NULL MATCH (c:LicenseCredential {id: d.supervisor_id}) RETURN c.license_number AS s, toString(d.day) AS day, [d.joined, d.left, d.came, d.went, d.live] AS counts ORDER BY s, day');
  /** Neo4j: the day counts built again from the relationships (the build at a store's first start). */
  const rebuiltDays = async () => {
    await graph.engine.writeTransaction((tx) => tx.run("MATCH (d:RosterDay) DELETE d WITH count(*) AS n MATCH (m:Migration {id: 'roster-days'}) DELETE m"));
    const versions = neo4jVersions(graph.engine as Neo4jEngine, files);
    await neo4jRosterMarks(files).buildDays(graph.engine, (fn) => versions.exclusive(fn));
    return rosterDays();
  };

  beforeAll(async () => {
    ({ graph } = await testGraph());
    side = await testStore();
    app = testApp(graph, side) as unknown as App;
    auth = { Authorization: `Bearer ${(await side.accounts.createAccount({ email: 'roster@example.com', plan: 'enterprise' })).key.key}` };
    await ingest(FIRST, '2026-03-01');
    await ingest(SECOND, '2026-06-01');
  });
  afterAll(async () => {
    await graph?.close();
    await side?.store.close();
  });

  it('when a month-by-month history is asked then each period says who joined and left, the transfers in and out, and a count equal to a traversal on its last day', async () => {
    const h = await history('?from=2025-12-15&to=2026-06-02');
    expect([h.from, h.to, h.period, h.in_force_before]).toEqual(['2025-12-01', '2026-06-30', 'month', 1]);
    const summary = h.data.map((p) => [p.period_start, p.joined, p.left, p.in_force_at_end, p.transfers_in, p.transfers_out]);
    expect(summary).toEqual([
      ['2025-12-01', 0, 0, 1, 0, 0],
      ['2026-01-01', 1, 0, 2, 0, 0],
      ['2026-02-01', 1, 0, 3, 0, 0],
      ['2026-03-01', 0, 0, 3, 0, 0],
      ['2026-04-01', 0, 1, 2, 0, 1],
      ['2026-05-01', 2, 0, 4, 1, 0],
      ['2026-06-01', 0, 1, 3, 0, 0],
    ]);
    const april = h.data[4];
    expect(april.left_affiliates).toEqual([expect.objectContaining({ license_number: '1-SA', effective_from: '2025-06-10', effective_to: '2026-04-10', transferred_to: expect.objectContaining({ license_number: '20-B', full_name: 'BROKER 20-B', effective_from: '2026-04-10' }) })]);
    const may = h.data[5];
    expect(may.joined_affiliates.map((a) => [a.license_number, a.transferred_from?.license_number ?? null, a.transferred_from?.effective_to ?? null])).toEqual([['3-SA', '20-B', '2026-05-05'], ['5-SA', null, null]]);
    expect(h.data[6].left_affiliates.map((a) => [a.license_number, a.effective_to, a.transferred_to])).toEqual([['2-SA', '2026-06-01', null]]);

    // Each period's count is what a walk of each agent's supervision on that day finds under 10-B.
    for (const p of h.data) {
      let count = 0;
      for (const number of AGENTS) {
        const found = body(await request(app).get(`/api/v1/licensees/TX/${number}/affiliations?as_of=${p.period_end}`).set(auth), AffiliationsResponse).data;
        count += found.filter((r) => r.supervisor_license_number === '10-B').length;
      }
      expect([p.period_end, p.in_force_at_end]).toEqual([p.period_end, count]);
    }
  });

  it('when a page of the lists is asked then each list names that page, with its transfers, and the counts stay whole', async () => {
    const may = async (query: string) => (await history(`?from=2026-05-01&to=2026-05-31${query}`));
    const first = await may('&per_page=1');
    expect(first.meta).toEqual({ page: 1, per_page: 1 });
    expect(first.data[0]).toMatchObject({ joined: 2, transfers_in: 1, in_force_at_end: 4 });
    expect(first.data[0].joined_affiliates.map((a) => [a.license_number, a.transferred_from?.license_number ?? null])).toEqual([['3-SA', '20-B']]);
    const second = await may('&per_page=1&page=2');
    expect(second.data[0]).toMatchObject({ joined: 2, transfers_in: 1, in_force_at_end: 4 });
    expect(second.data[0].joined_affiliates.map((a) => [a.license_number, a.transferred_from])).toEqual([['5-SA', null]]);
    expect((await may('&per_page=1&page=3')).data[0].joined_affiliates).toEqual([]);
    expect((await may('')).meta).toEqual({ page: 1, per_page: 10 });
    expect(validationErrors(await request(app).get('/api/v1/licensees/TX/10-B/roster-history?per_page=101').set(auth))).toEqual([expect.objectContaining({ loc: ['query', 'per_page'] })]);
  });

  it('when weeks are asked, or the other side of a move, then the periods are ISO weeks and 20-B sees the mirror of the transfers', async () => {
    const weeks = await history('?period=week&from=2026-04-08&to=2026-04-12');
    expect(weeks.data.map((p) => [p.period_start, p.period_end])).toEqual([['2026-04-06', '2026-04-12']]);
    expect(weeks.data[0]).toMatchObject({ left: 1, transfers_out: 1 });
    const other = await history('?from=2026-04-01&to=2026-05-31', '20-B');
    expect(other.data.map((p) => [p.period_start, p.joined, p.left, p.transfers_in, p.transfers_out])).toEqual([['2026-04-01', 1, 0, 1, 0], ['2026-05-01', 0, 1, 0, 1]]);
    expect(other.data[0].joined_affiliates[0].transferred_from).toMatchObject({ license_number: '10-B', effective_to: '2026-04-10' });
    // Without from: twelve periods ending with the one holding `to`.
    const year = await history('?to=2026-06-30');
    expect([year.data.length, year.from, year.to]).toEqual([12, '2025-07-01', '2026-06-30']);
  });

  it('when a role or a relationship type is asked then only those relationships are counted, before the range and in it', async () => {
    const counts = (h: z.infer<typeof RosterHistoryResponse>) => [h.in_force_before, ...h.data.map((p) => [p.joined, p.left, p.in_force_at_end, p.transfers_in, p.transfers_out])];
    const all = await history('?from=2025-12-15&to=2026-06-02');
    expect(counts(await history('?from=2025-12-15&to=2026-06-02&affiliate_role=salesperson'))).toEqual(counts(all));
    expect(counts(await history('?from=2025-12-15&to=2026-06-02&relationship_type=sponsoring_broker'))).toEqual(counts(all));
    const none = await history('?from=2025-12-15&to=2026-06-02&affiliate_role=broker_associate');
    expect(counts(none)).toEqual([0, ...all.data.map(() => [0, 0, 0, 0, 0])]);
  });

  it('when the CSV is asked then it has a row per joiner and leaver with its period, and one for a quiet period', async () => {
    const res = await request(app).get('/api/v1/licensees/TX/10-B/roster-history.csv?from=2026-03-01&to=2026-05-31').set(auth);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const rows = parse(res.text, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.period_start, r.change, r.license_number, r.transfer_supervisor_license_number, r.in_force_at_period_end])).toEqual([
      ['2026-03-01', 'none', '', '', '3'],
      ['2026-04-01', 'left', '1-SA', '20-B', '2'],
      ['2026-05-01', 'joined', '3-SA', '20-B', '4'],
      ['2026-05-01', 'joined', '5-SA', '', '4'],
    ]);
  });

  // Neo4j Browser's questions on a date, answered by the analyst queries as by the API.
  it.runIf(TEST_ENGINE === 'neo4j')('when the analyst queries are run in Cypher then their months and transfers are the API\'s', async () => {
    const analyst = (name: string) => fs.readFileSync(path.join(import.meta.dirname, '../../cypher/analyst', name), 'utf8');
    const months = await graph.engine.read(analyst('broker-roster-by-month.cypher'), { state: 'TX', license_number: '10-B', from: '2025-12-15', to: '2026-06-02' });
    const api = (await history('?from=2025-12-15&to=2026-06-02')).data;
    expect(months.map((m) => [m.period_start, m.period_end, Number(m.joined), Number(m.left), Number(m.in_force_at_end), Number(m.transfers_in), Number(m.transfers_out)])).toEqual(
      api.map((p) => [p.period_start, p.period_end, p.joined, p.left, p.in_force_at_end, p.transfers_in, p.transfers_out]),
    );
    const moves = await graph.engine.read(analyst('transfers-between.cypher'), { state: 'TX', from: '2026-01-01', to: '2026-06-30' });
    expect(moves.map((m) => [m.license_number, m.from_supervisor, m.ended, m.to_supervisor, m.started])).toEqual([
      ['1-SA', '10-B', '2026-04-10', '20-B', '2026-04-10'],
      ['3-SA', '20-B', '2026-05-05', '10-B', '2026-05-05'],
    ]);
  });

  // Before the first start builds the in-force copies, the traversal's query answers.
  it.runIf(TEST_ENGINE === 'neo4j')('when the in-force copies are not built then the traversal gives the same history, names and transfers', async () => {
    const full = await history('?from=2025-12-15&to=2026-06-02');
    const [{ day }] = await graph.engine.read("MATCH (d:InForceDay {id: 'supervises'}) RETURN toString(d.date) AS day");
    await graph.engine.writeTransaction((tx) => tx.run("MATCH (d:InForceDay {id: 'supervises'}) REMOVE d.date"));
    try {
      expect(await history('?from=2025-12-15&to=2026-06-02')).toEqual(full);
    } finally {
      await graph.engine.writeTransaction((tx) => tx.run("MATCH (d:InForceDay {id: 'supervises'}) SET d.date = date($day)", { day }));
    }
  });

  // A store written before SUPERVISES carried its supervisor's id gets it at the next start; one
  // written while they carried list keys loses them (decision 0047).
  it.runIf(TEST_ENGINE === 'neo4j')('when a Neo4j store\'s relationships lack the supervisor\'s id and transfer marks, or carry list keys, then the schema sets them or removes them once and the history is the same', async () => {
    const months = async () => (await history('?from=2025-12-15&to=2026-06-02')).data.map((p) => [p.joined, p.left, p.in_force_at_end, p.transfers_in, p.transfers_out]);
    const before = await months();
    const missing = async () => Number((await graph.engine.read('MATCH (s)-[r:SUPERVISES]->() WHERE r.supervisor_id IS NULL OR r.supervisor_id <> s.id RETURN count(r) AS n'))[0].n);
    const marks = async () => (await graph.engine.read('MATCH ()-[r:SUPERVISES]->(a) WHERE r.vt IS NULL RETURN a.license_number AS a, toString(r.effective_from) AS f, r.came AS came, r.went AS went ORDER BY a, f'));
    const marked = await marks();
    expect(marked.some((m) => m.came) && marked.some((m) => m.went)).toBe(true);
    const pages = async () => (await history('?from=2025-12-15&to=2026-06-02&per_page=1&page=2')).data.map((p) => [p.joined_affiliates, p.left_affiliates]);
    const paged = await pages();
    // Without day counts (a store before them), every change is read: the same answer; the first start builds them.
    const days = await rosterDays();
    expect(days.length).toBeGreaterThan(3);
    await graph.engine.writeTransaction((tx) => tx.run("MATCH (d:RosterDay) DELETE d WITH count(*) AS n MATCH (m:Migration {id: 'roster-days'}) DELETE m"));
    expect(await months()).toEqual(before);
    expect(await pages()).toEqual(paged);
    expect(await rebuiltDays()).toEqual(days);
    // Without marks, a history counts transfers by the counterparts: the same answer.
    await graph.engine.writeTransaction((tx) => tx.run('MATCH ()-[r:SUPERVISES]->() REMOVE r.came, r.went'));
    expect(await months()).toEqual(before);
    expect(await pages()).toEqual(paged);
    await graph.engine.writeTransaction(async (tx) => {
      await tx.run("MATCH ()-[r:SUPERVISES]->() REMOVE r.supervisor_id SET r.list_key = 'a key once kept'");
      await tx.run("MATCH (m:Migration) WHERE m.id IN ['supervises-supervisor-id', 'supervises-transfer-marks', 'no-list-key'] DELETE m");
    });
    const listKeys = async () => Number((await graph.engine.read('MATCH ()-[r:SUPERVISES]->() WHERE r.list_key IS NOT NULL RETURN count(r) AS n'))[0].n);
    expect(await missing()).toBeGreaterThan(3);
    expect(await listKeys()).toBeGreaterThan(3);
    await graph.engine.applySchema(splitStatements(files.get('schema/neo4j')));
    expect(await missing()).toBe(0);
    expect(await listKeys()).toBe(0);
    expect(await marks()).toEqual(marked);
    expect(await months()).toEqual(before);
  });

  it('when the licence is unknown or the range is wrong then 404 and 422 say so', async () => {
    expect(errorDetail(await request(app).get('/api/v1/licensees/TX/999-B/roster-history').set(auth), 404)).toMatch(/999-B/);
    const bad = async (q: string) => validationErrors(await request(app).get(`/api/v1/licensees/TX/10-B/roster-history${q}`).set(auth));
    expect((await bad('?from=2026-05-01&to=2026-04-01'))[0]).toMatchObject({ loc: ['query', 'from'], msg: 'from must be on or before to' });
    expect((await bad('?period=week&from=2025-01-01&to=2026-06-01'))[0]).toMatchObject({ loc: ['query', 'from'], msg: expect.stringMatching(/at most 60 periods of a week/) });
    expect((await bad('?period=year'))[0].loc).toEqual(['query', 'period']);
  });

  it('when a later snapshot moves an agent then the history read before it is not served again', async () => {
    const june = async () => (await history('?from=2026-06-01&to=2026-06-30')).data[0];
    expect(await june()).toMatchObject({ joined: 0, left: 1, transfers_out: 0, in_force_at_end: 3 });
    // 5-SA moves to 20-B; 2-SA, whose end came with the last snapshot, joins 20-B within the window:
    // an end written before is a transfer from now on.
    const third = SECOND.map((line) => (line.includes('5-SA') ? agent('5-SA', '20-B', '06/15/2026') : line.includes('2-SA') ? agent('2-SA', '20-B', '06/20/2026') : line));
    await ingest(third, '2026-07-01');
    const after = await june();
    expect(after).toMatchObject({ joined: 0, left: 2, transfers_out: 2, in_force_at_end: 2 });
    expect(after.left_affiliates.map((a) => [a.license_number, a.transferred_to?.license_number ?? null])).toEqual([['2-SA', '20-B'], ['5-SA', '20-B']]);
    // The other side: the relationships the refresh opened are found by their dates, and listed by them.
    const other = (await history('?from=2026-06-01&to=2026-06-30', '20-B')).data[0];
    expect(other).toMatchObject({ joined: 2, transfers_in: 2 });
    expect(other.joined_affiliates.map((a) => [a.license_number, a.effective_from, a.transferred_from?.license_number ?? null])).toEqual([['5-SA', '2026-06-15', '10-B'], ['2-SA', '2026-06-20', '10-B']]);
    if (TEST_ENGINE === 'neo4j') {
      // Neo4j counts by the marks the refresh wrote (roster-marks.cypher): every current relationship has them.
      const [marks] = await graph.engine.read("MATCH (:LicenseCredential {license_number: '10-B'})-[r:SUPERVISES]->(a) WHERE r.vt IS NULL AND r.effective_to IS NOT NULL RETURN collect([a.license_number, r.went]) AS ended, COUNT { ()-[u:SUPERVISES]->() WHERE u.vt IS NULL AND u.came IS NULL } AS unmarked");
      expect((marks.ended as [string, boolean][]).sort()).toEqual([['1-SA', true], ['2-SA', true], ['5-SA', true]]);
      expect(Number(marks.unmarked)).toBe(0);
      // The refresh's day counts (versions of its generation where they changed) are those a build counts.
      const days = await rosterDays();
      expect(days.filter((d) => d.s === '20-B' && d.day === '2026-06-15')).toEqual([{ s: '20-B', day: '2026-06-15', counts: [1, 0, 1, 0, 1] }]);
      expect(await rebuiltDays()).toEqual(days);
    }
  });

  it.runIf(TEST_ENGINE === 'neo4j')('when another process holds the graph then a start\'s day-count build waits for it, and then counts each day once', async () => {
    const target = suiteNeo4j();
    // A second start's engine, opened while the days are built (it has nothing to build).
    const second = await openGraph(testConfig({ graphPath: ':memory:', NEO4J_URI: target.uri, NEO4J_USER: target.user, NEO4J_PASSWORD: target.password }), files);
    try {
      const days = await rosterDays();
      await graph.engine.writeTransaction((tx) => tx.run("MATCH (d:RosterDay) DELETE d WITH count(*) AS n MATCH (m:Migration {id: 'roster-days'}) DELETE m"));
      // Another live process (this one's parent) holds the graph's claim, as a refresh or its own build would.
      const other = neo4jVersions(graph.engine as Neo4jEngine, files, `${os.hostname()}:${process.ppid}`);
      let release!: () => void;
      let entered!: () => void;
      const inside = new Promise<void>((r) => (entered = r));
      const holding = other.exclusive(() => (entered(), new Promise<void>((r) => (release = r))));
      await inside;
      let waiting!: (holder: string) => void;
      const waited = new Promise<string>((r) => (waiting = r));
      const versions = neo4jVersions(second.engine as Neo4jEngine, files);
      const building = neo4jRosterMarks(files).buildDays(second.engine, (fn) => versions.exclusive(fn, waiting));
      expect(await waited).toBe(`${os.hostname()}:${process.ppid}`);
      expect(await rosterDays()).toEqual([]);
      release();
      await holding;
      await building;
      expect(await rosterDays()).toEqual(days);
    } finally {
      await second.close();
    }
  });

  it('when a snapshot renames the broker then its history and lists are as before', async () => {
    const year = () => history('?from=2025-12-15&to=2026-07-31&per_page=2');
    const before = await year();
    // A new name is a new version of the broker's credential, carrying a copy of each relationship.
    const third = SECOND.map((line) => (line.includes('5-SA') ? agent('5-SA', '20-B', '06/15/2026') : line.includes('2-SA') ? agent('2-SA', '20-B', '06/20/2026') : line));
    const renamed = third.map((line) => (line.includes('BROKER 10-B') ? line.replace('BROKER 10-B', 'BROKER 10-B RENAMED') : line));
    expect(renamed).not.toEqual(third);
    await ingest(renamed, '2026-08-01');
    const after = await year();
    expect(after.supervisor.full_name).toMatch(/RENAMED/);
    expect(after.data).toEqual(before.data);
    if (TEST_ENGINE === 'neo4j') {
      const days = await rosterDays();
      expect(await rebuiltDays()).toEqual(days);
    }
  });
});
