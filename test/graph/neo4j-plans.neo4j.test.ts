import neo4j, { type Driver } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importsOf } from '../../src/compose/index.js';
import { toNeo4jParams } from '../../src/graph/neo4j/engine.js';
import { importFolder } from '../../src/ingest/load.js';
import { DEMO_SEEDS, emptyGraph, files, suiteNeo4j } from '../helpers/graph.js';

// Every query a request runs, planned by the real server over the demo data: entered by a
// constraint or an index, never by scanning every node, every credential or every relationship.
// Jurisdictions and sources (a few dozen nodes) may be scanned.

interface Plan {
  operatorType: string;
  arguments: Record<string, unknown>;
  children: Plan[];
}

const SMALL_LABELS = ['Jurisdiction', 'Source'];
const RELATIONSHIP_SCANS = /RelationshipTypeScan|AllRelationshipsScan/;
const LABEL_SCANS = /NodeByLabelScan|UnionNodeByLabelsScan|IntersectionNodeByLabelsScan|SubtractionNodeByLabelsScan/;

/** The operators of a plan that scan what must not be scanned, with their details. */
function scans(plan: Plan): string[] {
  const name = plan.operatorType.replace(/@.*$/, '');
  const details = String(plan.arguments.Details ?? '');
  const bad =
    name === 'AllNodesScan' ||
    RELATIONSHIP_SCANS.test(name) ||
    (LABEL_SCANS.test(name) && !SMALL_LABELS.some((label) => new RegExp(`^\\w+:${label}$`).test(details.trim())));
  return [...(bad ? [`${name} ${details}`] : []), ...plan.children.flatMap(scans)];
}

/** [name, query, parameters] of every request-path query. */
function requestQueries(): [string, string, Record<string, unknown>][] {
  const id = 'c7a6bd63-3d0a-5d4c-8b1f-1f4b4f0c8c11';
  const g = { g: 0 };
  const out: [string, string, Record<string, unknown>][] = [
    ['engine/neo4j/credentials', files.get('engine/neo4j/credentials'), { ...g, published: 0, ids: [id, `${id.slice(0, -1)}2`] }],
    ['engine/neo4j/licensees', files.get('engine/neo4j/licensees'), { ...g, ids: [id, `${id.slice(0, -1)}2`], day: '2026-11-25', levels: 2, brief: true }],
    ['engine/neo4j/hierarchy', files.get('engine/neo4j/hierarchy'), { ...g, ids: [id, `${id.slice(0, -1)}2`], day: '2026-11-25' }],
    ['engine/neo4j/affiliations', files.get('engine/neo4j/affiliations'), { ...g, ids: [id, `${id.slice(0, -1)}2`], day: '2026-11-25', as_of: true, include_inactive: true, affiliate_role: 'salesperson', relationship_type: null }],
    ['engine/neo4j/affiliates', files.get('engine/neo4j/affiliates'), { ...g, id, today: '2026-11-25', affiliate_role: null, relationship_type: 'sponsoring_broker', skip: 25, limit: 25 }],
    ['engine/neo4j/affiliates-in-force', files.get('engine/neo4j/affiliates-in-force'), { ...g, id, today: '2026-11-25', skip: 25, limit: 25 }],
    ['engine/neo4j/affiliates-in-force-filtered', files.get('engine/neo4j/affiliates-in-force-filtered'), { ...g, id, today: '2026-11-25', affiliate_role: 'salesperson', relationship_type: 'sponsoring_broker', skip: 25, limit: 25 }],
    ['engine/neo4j/affiliates-in-force-total', files.get('engine/neo4j/affiliates-in-force-total'), { ...g, id, today: '2026-11-25' }],
    ['engine/neo4j/affiliates-in-force-from-end', files.get('engine/neo4j/affiliates-in-force-from-end'), { ...g, id, today: '2026-11-25', from_end: 25, limit: 25 }],
    ['engine/neo4j/in-force-changed', files.get('engine/neo4j/in-force-changed'), { lo: '2026-11-24', hi: '2026-11-25' }],
    ['engine/neo4j/in-force-affiliates', files.get('engine/neo4j/in-force-affiliates'), { state: 'TX' }],
    ['engine/neo4j/in-force-drop', files.get('engine/neo4j/in-force-drop'), { ids: [id], day: '2026-11-25' }],
    ['engine/neo4j/in-force-add', files.get('engine/neo4j/in-force-add'), { ids: [id], day: '2026-11-25' }],
    ['engine/neo4j/type-counts', files.get('engine/neo4j/type-counts'), { ...g, states: ['TX', 'FL'] }],
    // Not a request's, but a state's rows for the search index must be read from its jurisdiction, not a scan.
    ['engine/neo4j/search-rows', files.get('engine/neo4j/search-rows'), { ...g, states: ['TX', 'FL'] }],
    ['engine/neo4j/search-brokers', files.get('engine/neo4j/search-brokers'), { ...g, states: ['TX', 'FL'], types: ['sponsoring_broker', 'employing_broker'] }],
    ['engine/neo4j/search-brokerages', files.get('engine/neo4j/search-brokerages'), { ...g, states: ['TX', 'FL'] }],
    ['engine/neo4j/versions/search-states', files.get('engine/neo4j/versions/search-states'), {}],
    ['engine/ladybug/jurisdiction-coverage', files.get('engine/ladybug/jurisdiction-coverage'), {}],
    ['coverage/jurisdictions', files.get('coverage/jurisdictions'), {}],
  ];
  return out;
}

describe('the plans of the request-path queries on the real Neo4j', () => {
  let driver: Driver;
  beforeAll(async () => {
    const graph = await emptyGraph('neo4j');
    await importFolder(importsOf(graph, files), DEMO_SEEDS);
    await graph.close();
    const target = suiteNeo4j();
    driver = neo4j.driver(target.uri, neo4j.auth.basic(target.user, target.password));
    // Planned over the demo data: not plans another file's graph left in the server's cache.
    await driver.executeQuery('CALL db.clearQueryCaches()');
  });
  afterAll(() => driver?.close());

  it.each(requestQueries())('when %s is explained then it scans no credential, relationship or whole graph', async (_name, query, params) => {
    const session = driver.session({ defaultAccessMode: neo4j.session.READ });
    try {
      const result = await session.run(`EXPLAIN ${query}`, toNeo4jParams(params) as Record<string, unknown>);
      const plan = result.summary.plan as unknown as Plan;
      expect(plan).toBeTruthy();
      expect(scans(plan)).toEqual([]);
    } finally {
      await session.close();
    }
  });

  it.each(['affiliates-in-force', 'affiliates-in-force-filtered', 'affiliates-in-force-from-end'])('when engine/neo4j/%s is explained then its page is read from the index in order, never sorted', async (name) => {
    const session = driver.session({ defaultAccessMode: neo4j.session.READ });
    try {
      const params = { g: 0, id: 'TX|100001-B', today: '2026-11-25', affiliate_role: 'salesperson', relationship_type: null, skip: 25, from_end: 25, limit: 25 };
      const plan = (await session.run(`EXPLAIN ${files.get(`engine/neo4j/${name}`)}`, toNeo4jParams(params) as Record<string, unknown>)).summary.plan as unknown as Plan;
      const operators = (p: Plan): string[] => [`${p.operatorType.replace(/@.*$/, '')} ${String(p.arguments.Details ?? '')}`, ...p.children.flatMap(operators)];
      const all = operators(plan);
      expect(all.filter((o) => /^(Sort|Top|PartialSort|PartialTop)\b|IndexScan/.test(o))).toEqual([]);
      expect(all.some((o) => /RelationshipIndexSeek.*SUPERVISES_IN_FORCE\(supervisor_id, page_key\)/.test(o))).toBe(true);
    } finally {
      await session.close();
    }
  });

  it.each(['in-force-add', 'in-force-drop'])('when engine/neo4j/%s is explained then it expands from each affiliate, never seeking every link by date', async (name) => {
    const session = driver.session();
    try {
      const plan = (await session.run(`EXPLAIN ${files.get(`engine/neo4j/${name}`)}`, toNeo4jParams({ ids: ['x'], day: '2026-11-25' }) as Record<string, unknown>)).summary.plan as unknown as Plan;
      const operators = (p: Plan): string[] => [`${p.operatorType.replace(/@.*$/, '')} ${String(p.arguments.Details ?? '')}`, ...p.children.flatMap(operators)];
      expect(operators(plan).filter((o) => /RelationshipIndex(Seek|Scan)/.test(o))).toEqual([]);
    } finally {
      await session.close();
    }
  });

  it('when a query does scan then the check sees it', async () => {
    const session = driver.session();
    try {
      const plan = (await session.run('EXPLAIN MATCH (c:LicenseCredential) WHERE c.status_normalized = $s RETURN c.id', { s: 'active' })).summary.plan as unknown as Plan;
      expect(scans(plan).join()).toMatch(/NodeByLabelScan c:LicenseCredential/);
      const rels = (await session.run('EXPLAIN MATCH ()-[r:SUPERVISES]->() RETURN r')).summary.plan as unknown as Plan;
      expect(scans(rels).join()).toMatch(/RelationshipTypeScan/);
    } finally {
      await session.close();
    }
  });
});
