import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importsOf } from '../../src/compose/index.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { importFolder } from '../../src/ingest/load.js';
import { createLicenseesService } from '../../src/modules/licensees/licensees.service.js';
import { systemClock } from '../../src/domain/clock.js';
import type { Neo4jEngine } from '../../src/graph/neo4j/engine.js';
import { neo4jSearchSource } from '../../src/graph/neo4j/search-source.js';
import { DEMO_SEEDS, TEST_ENGINE, files, fixture, testGraph, testIndex } from '../helpers/graph.js';
import { folderWith } from '../helpers/source-files.js';

describe('the search index after one state\'s rows change', () => {
  let graph: GraphAdapters;
  beforeAll(async () => {
    ({ graph } = await testGraph(DEMO_SEEDS, fixture('small')));
  });
  afterAll(() => graph?.close());

  it('when a licensee is renamed then the next search finds the new name and not the old, the other states answer as before, and on Neo4j only that state is read again', async () => {
    const index = testIndex(graph);
    const licensees = createLicenseesService(graph.reads(() => '2026-11-22'), systemClock, index);
    const names = async (state: string, name: string) => (await licensees.search({ states: [state], name, page: 1, per_page: 50 })).data.map((l) => l.full_name);
    const before = await names('TX', 'quinn');
    expect(before).toContain('DANA QUINN');
    const others = { FL: await names('FL', 'a'), NY: await names('NY', 'a') };
    expect(others.FL.length).toBeGreaterThan(5);
    expect(index.status().last_build?.states).toBeGreaterThan(2);

    const header = fs.readFileSync(path.join(fixture('small'), 'credentials.csv'), 'utf8').split('\n')[0];
    const dir = folderWith({
      'credentials.csv': `${header}\nTX,200001-B,broker,Broker Individual,Active,,person,DANA ZYXWVUT,DANA,,ZYXWVUT,,,1995-02-01,2027-02-28,mailing,2 Oak Ave,,Austin,,TX,78702,,,k-d1,fixture,2026-11-02,2026-11-02T06:00:00Z,\n`,
    });
    try {
      await importFolder(importsOf(graph, files), dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(await names('TX', 'zyxw')).toEqual(['DANA ZYXWVUT']);
    expect(await names('TX', 'quinn')).toEqual(before.filter((n) => n !== 'DANA QUINN'));
    expect({ FL: await names('FL', 'a'), NY: await names('NY', 'a') }).toEqual(others);
    // Neo4j names the states whose rows moved (Jurisdiction.rows_version); LadybugDB reads every state.
    const count = async (query: string) => (await graph.engine.read(query))[0].n;
    const [states, txRows] = [await count('MATCH (c:LicenseCredential) RETURN count(DISTINCT c.state) AS n'), await count("MATCH (c:LicenseCredential {state: 'TX'}) RETURN count(c) AS n")];
    expect(index.status().last_build).toMatchObject(TEST_ENGINE === 'neo4j' ? { states: 1, rows: txRows } : { states });
  });

  it.runIf(TEST_ENGINE === 'neo4j')("when an import lands while a version is read then the version's state tokens are those of its generation and imports", async () => {
    const engine = graph.engine as Neo4jEngine;
    const statesQuery = files.get('engine/neo4j/versions/search-states');
    const header = fs.readFileSync(path.join(fixture('small'), 'credentials.csv'), 'utf8').split('\n')[0];
    const dir = folderWith({ 'credentials.csv': `${header}\nTX,200001-B,broker,Broker Individual,Active,,person,DANA ROUNDUP,DANA,,ROUNDUP,,,1995-02-01,2027-02-28,mailing,2 Oak Ave,,Austin,,TX,78702,,,k-d1,fixture,2026-11-03,2026-11-03T06:00:00Z,\n` });
    let landed = false;
    // The import batch commits just after the tokens were read: it moves TX's token and the import count.
    const racing: Neo4jEngine = {
      ...engine,
      read: async (query, params) => {
        const rows = await engine.read(query, params);
        if (query === statesQuery && !landed) {
          landed = true;
          await importFolder(importsOf(graph, files), dir);
        }
        return rows;
      },
    };
    try {
      const before = await neo4jSearchSource(engine, files).version(true);
      const read = await neo4jSearchSource(racing, files).version(true);
      expect(landed).toBe(true);
      expect(read.graph).not.toBe(before.graph);
      expect(read.states?.TX).not.toBe(before.states?.TX);
      expect(read).toEqual(await neo4jSearchSource(engine, files).version(true));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
