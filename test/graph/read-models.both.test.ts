import { afterEach, describe, expect, it } from 'vitest';
import { credentialId } from '../../src/domain/identity.js';
import { importsOf, openGraph, refreshOf } from '../../src/compose/index.js';
import { splitStatements } from '../../src/graph/query-files.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import type { GraphEngine } from '../../src/graph/graph-port.js';
import { ladybugAdapters } from '../../src/graph/ladybug/adapters.js';
import type { LadybugEngine } from '../../src/graph/ladybug/engine.js';
import { importFolder } from '../../src/ingest/load.js';
import { refresh } from '../../src/ingest/refresh/refresh.js';
import { resolveFormat } from '../../src/ingest/sources/index.js';
import { readModelStates, stateGroups, writeReadModelsFromExport } from '../../src/graph/ladybug/read-models.js';
import { DEMO_SEEDS, TEST_ENGINE, files, fixture, testGraph, testConfig } from '../helpers/graph.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TX_HEADER, folderWith, tempFile, txRow } from '../helpers/source-files.js';

// The supervision read models (SupervisorList of affiliates, AffiliateList of supervisors) that
// every read of supervision starts from: they must follow every write, and a graph without them
// gets them.
const TODAY = () => '2026-11-22';
const REL_HEADER = 'supervisor_state,supervisor_license_number,affiliate_state,affiliate_license_number,affiliate_role,relationship_type,effective_from,effective_to,source';
const AGENT = credentialId('TX', '763827-SA');
const BROKERAGE = credentialId('TX', '100001-B');
const DEMO = DEMO_SEEDS;

// What only LadybugDB does: keep read models (Neo4j reads supervision by traversal), and keep
// records between writes (Neo4j's writes may come from another process). On Neo4j
// (TEST_GRAPH_ENGINE=neo4j) these are skipped.
const onLadybug = (name: string, fn: () => Promise<void>) =>
  TEST_ENGINE === 'ladybug' ? it(name, fn) : it.skip(`${name}: skipped, LadybugDB only (Neo4j keeps no read models and sees no write notices)`, fn);
const onNeo4j = (name: string, fn: () => Promise<void>) => (TEST_ENGINE === 'neo4j' ? it(name, fn) : it.skip(`${name}: skipped, Neo4j only`, fn));

describe('the supervision read models', () => {
  let graph: GraphAdapters | undefined;
  afterEach(async () => {
    await graph?.close();
    graph = undefined;
  });

  const wire = (g: GraphAdapters) => ({ licensees: g.reads(TODAY), relationships: g.reads(TODAY) });
  /** Reads through an engine that counts what it is asked (LadybugDB's adapters over it). */
  const wireCounted = (counted: GraphEngine) => {
    const reads = ladybugAdapters(counted as LadybugEngine, files).reads(TODAY);
    return { licensees: reads, relationships: reads };
  };
  const snapshot = async (g: GraphAdapters) => ({
    supervisors: await g.engine.read('MATCH (x:SupervisorList) RETURN x.id AS id, x.state AS state, x.entries AS entries ORDER BY x.id'),
    affiliates: await g.engine.read('MATCH (x:AffiliateList) RETURN x.id AS id, x.state AS state, x.entries AS entries ORDER BY x.id'),
  });

  it('when an import ends a relationship then supervisors and affiliates read afterwards no longer list it', async () => {
    ({ graph } = await testGraph(fixture('small')));
    const { licensees, relationships } = wire(graph);
    const supervisorsOf = async () => (await licensees.withSupervisors([AGENT])).open.map((s) => s.license_number);
    const affiliateNumbers = async () => (await relationships.affiliates(BROKERAGE, {}, 0, 100)).rows.map((r) => r.license_number);
    expect(await supervisorsOf()).toEqual(['100001-B']);
    const before = await affiliateNumbers();
    expect(before).toContain('763827-SA');

    const summary = await importFolder(
      importsOf(graph, files),
      folderWith({ 'relationships.csv': `${REL_HEADER}\nTX,100001-B,TX,763827-SA,salesperson,sponsoring_broker,2020-06-01,2026-11-01,fixture\n` }),
    );
    expect(summary.rejected).toEqual([]);
    expect(await supervisorsOf()).toEqual([]);
    // The parsed list the first read cached is dropped by the write.
    expect(await affiliateNumbers()).toEqual(before.filter((n) => n !== '763827-SA'));
    const [record] = await licensees.byIds([AGENT]);
    expect(record.supervision).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ supervisor_id: BROKERAGE, affiliate_role: 'salesperson', relationship_type: 'sponsoring_broker', effective_from: '2020-06-01', effective_to: '2026-11-01' }),
      ]),
    );
  });

  onLadybug('when a graph file holds relationships without read models then opening it computes them, and a graph with them opens as it is', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-read-models-'));
    const config = testConfig({ graphPath: path.join(dir, 'graph.lbug'), GRAPH_BUFFER_POOL_MB: 256, GRAPH_CONNECTIONS: 1, GRAPH_QUERY_TIMEOUT_MS: 30000 });
    try {
      graph = await openGraph(config, files);
      await importFolder(importsOf(graph, files), fixture('small'));
      const written = await snapshot(graph);
      expect(written.supervisors.length).toBeGreaterThan(3);
      expect(written.affiliates.length).toBeGreaterThan(3);
      await graph.engine.writeTransaction(async (tx) => {
        await tx.run('MATCH (x:SupervisorList) DELETE x');
        await tx.run('MATCH (x:AffiliateList) DELETE x');
      });
      await graph.close();

      const logged: string[] = [];
      graph = await openGraph(config, files, { info: (_obj: object, msg: string) => void logged.push(msg) } as never);
      expect(await snapshot(graph)).toEqual(written);
      expect(logged).toEqual(['computed the supervision read models of a graph written before they existed']);
      await graph.close();

      logged.length = 0;
      graph = await openGraph(config, files, { info: (_obj: object, msg: string) => void logged.push(msg) } as never);
      expect(await snapshot(graph)).toEqual(written);
      expect(logged).toEqual([]);
    } finally {
      await graph?.close();
      graph = undefined;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  onLadybug('when records are read again then they come without a query until a write, after which they are read anew', async () => {
    ({ graph } = await testGraph(fixture('small')));
    const g = graph;
    let reads = 0;
    const counted: GraphEngine = { ...g.engine, read: (q, p) => ((reads += 1), g.engine.read(q, p)) };
    const { licensees } = wireCounted(counted);
    const [first] = await licensees.byIds([AGENT]);
    const afterFirst = reads;
    // The credential's key read and the jurisdictions' coverage.
    expect(afterFirst).toBe(2);
    expect(await licensees.byIds([AGENT])).toEqual([first]);
    expect(reads).toBe(afterFirst);
    await importFolder(importsOf(g, files), folderWith({ 'relationships.csv': `${REL_HEADER}\nTX,100001-B,TX,763827-SA,salesperson,sponsoring_broker,2020-06-01,2026-11-01,fixture\n` }));
    const [again] = await licensees.byIds([AGENT]);
    expect(reads).toBe(afterFirst + 2);
    expect(again.supervision).not.toEqual(first.supervision);
  });

  onLadybug('when callers read different records at once then one query reads them all and each gets its own', async () => {
    ({ graph } = await testGraph(fixture('small')));
    const g = graph;
    const queries: unknown[] = [];
    const counted: GraphEngine = { ...g.engine, read: (q, p) => (queries.push(p), g.engine.read(q, p)) };
    const { licensees } = wireCounted(counted);
    await licensees.byIds([BROKERAGE]);
    queries.length = 0;
    const ids = [AGENT, credentialId('TX', '0000000-none'), BROKERAGE];
    const [agent, unknown, both] = await Promise.all([licensees.byIds([AGENT]), licensees.byIds([ids[1]]), licensees.byIds([AGENT, BROKERAGE])]);
    expect(agent.map((r) => r.id)).toEqual([AGENT]);
    expect(unknown).toEqual([]);
    expect(both.map((r) => r.id).sort()).toEqual([AGENT, BROKERAGE].sort());
    // The brokerage was kept from the first read; the agent is read once for both callers.
    expect(queries).toEqual([{ ids: [AGENT, ids[1]] }]);
  });

  it('when the day passes a relationship\'s end then a cached affiliate list leaves it out of pages and totals, filtered or not', async () => {
    ({ graph } = await testGraph(fixture('small')));
    await importFolder(
      importsOf(graph, files),
      folderWith({ 'relationships.csv': `${REL_HEADER}\nTX,100001-B,TX,763827-SA,salesperson,sponsoring_broker,2020-06-01,2026-12-01,fixture\n` }),
    );
    let day = '2026-11-22';
    const relationships = graph.reads(() => day);
    const page = async (f = {}, skip = 0, limit = 100) => {
      const { rows, total } = await relationships.affiliates(BROKERAGE, f, skip, limit);
      return { numbers: rows.map((r) => r.license_number), total };
    };
    const before = await page();
    expect(before.numbers).toContain('763827-SA');
    expect(before.total).toBe(before.numbers.length);
    const sponsored = await page({ relationship_type: 'sponsoring_broker' });
    expect(sponsored.numbers).toContain('763827-SA');
    // Pages of one entry each walk the same list in the same order.
    const oneByOne = await Promise.all(before.numbers.map(async (_, i) => (await page({}, i, 1)).numbers[0]));
    expect(oneByOne).toEqual(before.numbers);

    day = '2026-12-01';
    const after = await page();
    expect(after.numbers).toEqual(before.numbers.filter((n) => n !== '763827-SA'));
    expect(after.total).toBe(before.total - 1);
    expect((await page({ relationship_type: 'sponsoring_broker' })).total).toBe(sponsored.total - 1);
    expect((await page({ affiliate_role: 'salesperson', relationship_type: 'sponsoring_broker' })).numbers).not.toContain('763827-SA');
  });

  it('when an import links a supervisor in another state then that state\'s affiliate lists are rebuilt with it', async () => {
    ({ graph } = await testGraph(DEMO));
    const { relationships, licensees } = wire(graph);
    const summary = await importFolder(
      importsOf(graph, files),
      folderWith({ 'relationships.csv': `${REL_HEADER}\nFL,0556506,TX,406526-SA,salesperson,employing_broker,2025-01-01,,fixture\n` }),
    );
    expect(summary.rejected).toEqual([]);
    const listed = (await relationships.affiliates(credentialId('FL', '0556506'), {}, 0, 500)).rows.map((r) => r.license_number);
    expect(listed).toContain('406526-SA');
    const [agent] = await licensees.byIds([credentialId('TX', '406526-SA')]);
    expect(agent.supervision).toContainEqual({ supervisor_id: credentialId('FL', '0556506'), affiliate_role: 'salesperson', relationship_type: 'employing_broker', effective_from: '2025-01-01', effective_to: null });
  });

  onNeo4j('when processes start together on a store from before a schema change then each applies it and starts', async () => {
    const { graph: g } = await testGraph(fixture('small'));
    graph = g;
    const schema = splitStatements(files.get('schema/neo4j'));
    const made = async () => (await g.engine.read("SHOW CONSTRAINTS YIELD name WHERE name = 'touch_stamp_g' RETURN name")).length;
    // Each round: the constraint of a later version missing, and four starts making it at once (the
    // label's lock can deadlock them; a start must not fail for that).
    for (let round = 0; round < 3; round++) {
      await g.engine.writeTransaction((tx) => tx.run('DROP CONSTRAINT touch_stamp_g IF EXISTS'));
      expect(await made()).toBe(0);
      const starts = await Promise.allSettled(Array.from({ length: 4 }, () => g.engine.applySchema(schema)));
      expect(starts.filter((s) => s.status === 'rejected')).toEqual([]);
      expect(await made()).toBe(1);
    }
  });

  onNeo4j('when a database holds the read models of an earlier version then the service drops them at start and keeps none after imports', async () => {
    ({ graph } = await testGraph(fixture('small')));
    const lists = async (g: GraphAdapters) => (await g.engine.read('MATCH (x) WHERE x:SupervisorList OR x:AffiliateList RETURN count(x) AS n'))[0].n;
    const docs = async (g: GraphAdapters) => (await g.engine.read('MATCH (c:LicenseCredential) WHERE c.doc IS NOT NULL RETURN count(c) AS n'))[0].n;
    expect([await lists(graph), await docs(graph)]).toEqual([0, 0]);
    await graph.engine.writeTransaction(async (tx) => {
      await tx.run("MATCH (c:LicenseCredential) SET c.doc = '[]'");
      await tx.run('MATCH (m:Migration) DELETE m');
      await tx.run("UNWIND range(1, 25) AS i CREATE (:SupervisorList {id: toString(i), state: 'TX', entries: ['x']}), (:AffiliateList {id: toString(i), state: 'TX', entries: ['y']})");
    });
    // Schema changes go in a transaction of their own.
    await graph.engine.writeTransaction((tx) => tx.run('CREATE CONSTRAINT supervisor_list_id IF NOT EXISTS FOR (x:SupervisorList) REQUIRE x.id IS UNIQUE'));
    expect(await lists(graph)).toBe(50);
    expect(await docs(graph)).toBeGreaterThan(5);
    await graph.engine.applySchema(splitStatements(files.get('schema/neo4j')));
    expect([await lists(graph), await docs(graph)]).toEqual([0, 0]);
    const constraints = await graph.engine.read("SHOW CONSTRAINTS YIELD name WHERE name = 'supervisor_list_id' RETURN name");
    expect(constraints).toEqual([]);
  });

  it('when a real import removes demo records supervised from another state then that state\'s affiliate lists drop them', async () => {
    ({ graph } = await testGraph(DEMO));
    const { relationships } = wire(graph);
    const broker = credentialId('FL', '0556506');
    await importFolder(importsOf(graph, files), folderWith({ 'relationships.csv': `${REL_HEADER}\nFL,0556506,TX,406526-SA,salesperson,employing_broker,2025-01-01,,fixture\n` }));
    const listed = async () => (await relationships.affiliates(broker, {}, 0, 500)).rows.map((r) => r.license_number);
    expect(await listed()).toContain('406526-SA');
    // The FL broker's only TX affiliate goes with TX's demo records: no FL-TX relationship is left.
    const header = fs.readFileSync(path.join(fixture('small'), 'credentials.csv'), 'utf8').split('\n')[0];
    const summary = await importFolder(
      importsOf(graph, files),
      folderWith({ 'credentials.csv': `${header}\nTX,100001-B,brokerage,Broker Company,Active,,business,ACME REALTY LLC,,,,,ACME REALTY LLC,2001-05-01,2027-05-31,mailing,1 Main St,,Austin,Travis,TX,78701,US,,k-b1,fixture,2026-11-01,2026-11-01T06:00:00Z,\n` }),
    );
    expect(summary.demo_records_removed_for).toEqual(['TX']);
    expect(await listed()).not.toContain('406526-SA');
    const edges = await graph.engine.read('MATCH (b:LicenseCredential {id: $id})-[:SUPERVISES]->(a:LicenseCredential) RETURN a.license_number AS n', { id: broker });
    expect((await listed()).sort()).toEqual(edges.map((r) => r.n).sort());
  });

  it('when a state refresh removes demo records supervised from another state then that state\'s affiliate lists drop them', async () => {
    ({ graph } = await testGraph(DEMO));
    const g = graph;
    const { relationships } = wire(g);
    const broker = credentialId('FL', '0556506');
    await importFolder(importsOf(g, files), folderWith({ 'relationships.csv': `${REL_HEADER}\nFL,0556506,TX,406526-SA,salesperson,employing_broker,2025-01-01,,fixture\n` }));
    const listed = async () => (await relationships.affiliates(broker, {}, 0, 500)).rows.map((r) => r.license_number);
    expect(await listed()).toContain('406526-SA');
    const file = tempFile('trec.csv', `${[TX_HEADER, txRow({ type: 'Broker Individual', number: '100-B', name: 'OLD BROKER' })].join('\n')}\n`);
    const rejectsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-rejects-'));
    await refresh(refreshOf(g, files), { files: [file], format: resolveFormat(file), snapshot: '2026-11-01', rejectsDir });
    expect(await listed()).not.toContain('406526-SA');
  });

  it('when an affiliate name holds a tab or a line break then its entry holds spaces there and every other entry reads whole', async () => {
    ({ graph } = await testGraph(fixture('small')));
    const { relationships } = wire(graph);
    const summary = await importFolder(
      importsOf(graph, files),
      folderWith({
        'credentials.csv': 'state,license_number,license_type,status,full_name,source\nTX,900001-SA,salesperson,Active,"ANA\tLOPEZ\nJR",fixture\n',
        'relationships.csv': `${REL_HEADER}\nTX,100001-B,TX,900001-SA,salesperson,sponsoring_broker,2024-01-01,,fixture\n`,
      }),
    );
    expect(summary.rejected).toEqual([]);
    const rows = (await relationships.affiliates(BROKERAGE, {}, 0, 100)).rows;
    expect(rows.find((r) => r.license_number === '900001-SA')).toMatchObject({ full_name: 'ANA LOPEZ JR', relationship_type: 'sponsoring_broker', effective_from: '2024-01-01' });
    expect(rows.find((r) => r.license_number === '763827-SA')).toMatchObject({ relationship_type: 'sponsoring_broker' });
    expect(rows.every((r) => /^\d{4}-\d{2}-\d{2}$/.test(String(r.effective_from)))).toBe(true);
  });

  onLadybug('when the lists are built a state at a time then they equal those built in one export', async () => {
    ({ graph } = await testGraph(DEMO));
    const g = graph;
    await importFolder(importsOf(g, files), folderWith({ 'relationships.csv': `${REL_HEADER}\nFL,0556506,TX,406526-SA,salesperson,employing_broker,2025-01-01,,fixture\n` }));
    const written = await snapshot(g);
    expect(written.affiliates.some((x) => x.state === 'FL' && String(x.entries).includes(credentialId('TX', '406526-SA')))).toBe(true);
    const q = (name: string) => files.get(name);
    const queries = () => ({
      rows: q('engine/ladybug/read-model-rows'),
      copySupervisorLists: q('engine/ladybug/copy-supervisor-lists'),
      copyAffiliateLists: q('engine/ladybug/copy-affiliate-lists'),
      deleteSupervisorLists: q('engine/ladybug/delete-supervisor-lists'),
      deleteAffiliateLists: q('engine/ladybug/delete-affiliate-lists'),
    });
    await g.engine.writeLarge(async (t) => {
      const pairs = (await t.run(q('engine/ladybug/supervision-state-pairs'))) as never;
      const which = readModelStates(['CA', 'FL', 'TX'], pairs);
      await writeReadModelsFromExport(t as never, queries(), which, pairs, 1);
    });
    expect(await snapshot(g)).toEqual(written);

    // TX written alone: FL's affiliate lists, in a group of their own, come from an export with
    // no supervisor-list state.
    await g.engine.writeLarge(async (t) => {
      const pairs = (await t.run(q('engine/ladybug/supervision-state-pairs'))) as never;
      const which = readModelStates(['TX'], pairs);
      expect(which).toEqual({ supervised: ['TX'], supervising: ['FL', 'TX'] });
      await writeReadModelsFromExport(t as never, queries(), which, pairs, 1);
    });
    expect(await snapshot(g)).toEqual(written);

    // Lists in parts of 4 KB, each COPYed on its own (a part a list took a COPY and a checkpoint
    // for each of the demo's lists, half a minute): the same lists.
    const part = 4096;
    const bytes = (lists: Record<string, unknown>[]) => lists.reduce((n, x) => n + String(x.id).length + String(x.entries).length, 0);
    expect(Math.min(bytes(written.supervisors), bytes(written.affiliates))).toBeGreaterThan(3 * part);
    await g.engine.writeLarge(async (t) => {
      const pairs = (await t.run(q('engine/ladybug/supervision-state-pairs'))) as never;
      await writeReadModelsFromExport(t as never, queries(), readModelStates(['CA', 'FL', 'TX'], pairs), pairs, 1, part);
    });
    expect(await snapshot(g)).toEqual(written);
  });
});

describe('which read models an import rebuilds', () => {
  const pairs = [
    { supervisor_state: 'FL', affiliate_state: 'FL', relationships: 500 },
    { supervisor_state: 'FL', affiliate_state: 'TX', relationships: 3 },
    { supervisor_state: 'TX', affiliate_state: 'TX', relationships: 400 },
    { supervisor_state: 'CA', affiliate_state: 'CA', relationships: 300 },
  ];

  it('when TX is written then its supervisor lists and the affiliate lists of TX and FL are', () => {
    expect(readModelStates(['TX'], pairs)).toEqual({ supervised: ['TX'], supervising: ['FL', 'TX'] });
    expect(readModelStates(['CA'], pairs)).toEqual({ supervised: ['CA'], supervising: ['CA'] });
  });

  it('when states are grouped then each group stays under the limit unless one state alone exceeds it', () => {
    // Exported rows: CA 300 + 300, FL 503 (its affiliate lists), TX 403 + 400.
    expect(stateGroups(['CA', 'TX'], ['CA', 'FL', 'TX'], pairs, 1_000)).toEqual([['CA'], ['FL'], ['TX']]);
    expect(stateGroups(['CA', 'TX'], ['CA', 'FL', 'TX'], pairs, 1_200)).toEqual([['CA', 'FL'], ['TX']]);
    expect(stateGroups(['TX'], ['FL', 'TX'], pairs, 10_000)).toEqual([['FL', 'TX']]);
  });
});
