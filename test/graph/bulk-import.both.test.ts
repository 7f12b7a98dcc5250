import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateNational } from '../../bench/national-data.js';
import { importsOf } from '../../src/compose/index.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { importFolder, type ImportSummary } from '../../src/ingest/load.js';
import { DEMO_SEEDS, emptyGraph, files, fixture } from '../helpers/graph.js';
import { folderWith, smallWithRepeats } from '../helpers/source-files.js';
import { contents } from '../helpers/graph-contents.js';

const NOW = new Date('2026-11-20T12:00:00.000Z');
const opened: GraphAdapters[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((g) => g.close()));
});
async function graphOf(...folders: string[]): Promise<{ graph: GraphAdapters; summaries: ImportSummary[] }> {
  const graph = await emptyGraph('ladybug');
  opened.push(graph);
  const summaries = [];
  for (const folder of folders) summaries.push(await importFolder(importsOf(graph, files), folder, { now: () => NOW }));
  return { graph, summaries };
}

describe('the bulk path of a first import', () => {
  it('when a graph without credentials takes a folder then it holds what the upsert path writes, with the same report', async () => {
    // A WY credential on file sends the second graph's imports down the upsert path.
    const wy = folderWith({
      'jurisdictions.csv': 'state,relationship_coverage\nWY,source_not_published\n',
      'credentials.csv': 'state,license_number,license_type,status,full_name,source\nWY,1,broker,Active,A B,test\n',
    });
    const small = fixture('small');
    const repeated = smallWithRepeats(small);
    for (const folder of [DEMO_SEEDS, small, repeated]) {
      const bulk = await graphOf(folder);
      const upsert = await graphOf(wy, folder);
      expect(upsert.summaries[0].credentials).toBe(1);
      const [a, b] = [bulk.summaries[0], upsert.summaries[1]];
      expect({ ...a, elapsed_ms: 0 }).toEqual({ ...b, elapsed_ms: 0 });
      const [x, y] = [await contents(bulk.graph), await contents(upsert.graph)];
      expect(x.credentials.length).toBeGreaterThan(5);
      if (folder !== DEMO_SEEDS) expect(x.affiliateLists.length).toBeGreaterThan(1);
      expect(x).toEqual(y);
    }
    const [last] = await (await graphOf(repeated)).graph.engine.read(
      "MATCH (:LicenseCredential {license_number: '300001-B'})-[r:SUPERVISES]->(:LicenseCredential {license_number: '763828-SA'}) RETURN r.affiliate_role AS role, r.effective_to AS until, r.source AS source, count(*) AS n",
    );
    expect(last).toEqual({ role: 'broker_associate', until: '2026-08-31', source: 'fixture-2', n: 1 });
  });

  it('when the files span many chunks then every reject keeps its line and quoted line breaks survive', async () => {
    const header = 'state,license_number,license_type,status,full_name,address_kind,address_line1,address_line2,source';
    const lines = [header];
    const expected: { file: string; line: number; reason: string }[] = [];
    let physical = 1; // the header
    const add = (row: string, reject?: string) => {
      lines.push(row);
      physical += row.split('\n').length;
      if (reject) expected.push({ file: 'credentials.csv', line: physical, reason: reject });
    };
    for (let i = 0; i < 12000; i++) {
      if (i === 3) add(`TX,B${i},broker,,NAME ${i},,,,test`, 'status: status is required');
      else if (i === 5000) add(`TX,B${i},broker,Active,"NAME, ""Q"" ${i}",mailing,"1 Main St","Suite 5\nBack door",test`);
      else if (i === 7000) add(`TX,B${i},broker,Active,NAME ${i},,,,test,extra`, 'malformed CSV: Invalid Record Length: columns length is 9, got 10');
      else if (i === 11000) add(`TX,B${i},robot,Active,NAME ${i},,,,test`);
      // Long lines: the file spans several chunks of a megabyte.
      else add(`TX,B${i},broker,Active,NAME ${i},mailing,${i} Main St ${'X'.repeat(200)},,test`);
    }
    add('TX,B42,broker,Active,AGAIN,,,,test', 'TX B42 appears more than once');
    const folder = folderWith({
      'jurisdictions.csv': 'state,relationship_coverage\nTX,verified_graph\n',
      'credentials.csv': `${lines.join('\n')}\n`,
      'relationships.csv': [
        'supervisor_state,supervisor_license_number,affiliate_state,affiliate_license_number,affiliate_role,relationship_type,effective_from,effective_to,source',
        'TX,B1,TX,B2,broker_associate,sponsoring_broker,2020-01-01,,test',
        'TX,B1,TX,B2,broker_associate,sponsoring_broker,2020-01-01,,test',
        'TX,B1,TX,NOPE,broker_associate,sponsoring_broker,2020-01-01,,test',
      ].join('\n'),
    });
    const { graph, summaries } = await graphOf(folder);
    const report = summaries[0];
    expect(fs.statSync(path.join(folder, 'credentials.csv')).size).toBeGreaterThan(2 * 2 ** 20);
    const robot = report.rejected.find((r) => r.reason.startsWith('license_type'));
    expect(robot?.line).toBe(11003);
    expect(report.rejected.filter((r) => r !== robot)).toEqual([
      ...expected.slice(0, 2),
      expected[2],
      { file: 'relationships.csv', line: 4, reason: 'supervisor TX B1 or affiliate TX NOPE is not on file' },
    ]);
    expect(report).toMatchObject({ jurisdictions: 1, credentials: 11997, relationships: 2 });
    const [quoted] = await graph.engine.read("MATCH (c:LicenseCredential {license_number: 'B5000'}) RETURN c.full_name AS name, c.address_line2 AS line2");
    expect(quoted).toEqual({ name: 'NAME, "Q" 5000', line2: 'Suite 5\nBack door' });
    expect(await graph.engine.read("MATCH (:LicenseCredential)-[r:SUPERVISES]->(:LicenseCredential) RETURN count(r) AS n")).toEqual([{ n: 1 }]);
    expect(await graph.engine.read("MATCH (j:Jurisdiction {code: 'TX'}) RETURN j.record_count AS n")).toEqual([{ n: 11997 }]);
  });
});

describe('the national dataset generator', () => {
  it('when it generates a small national set twice then the bytes match, it imports without a reject, and its shape is national', async () => {
    const [a, b] = [fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-nat-')), fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-nat-'))];
    const stats = await generateNational(a, { credentials: 6000, seed: 7 });
    await generateNational(b, { credentials: 6000, seed: 7 });
    for (const f of ['jurisdictions.csv', 'credentials.csv', 'relationships.csv']) {
      expect(fs.readFileSync(path.join(a, f)).equals(fs.readFileSync(path.join(b, f))), f).toBe(true);
    }
    expect(Object.keys(stats.byState)).toHaveLength(51);
    expect(stats.byState.FL).toBeGreaterThan(stats.byState.TX);
    expect(stats.brokers / stats.credentials).toBeCloseTo(0.15, 2);
    expect(stats.active / stats.credentials).toBeGreaterThan(0.66);
    expect(stats.active / stats.credentials).toBeLessThan(0.74);
    expect(stats.agentsWithPast / stats.agents).toBeGreaterThan(0.17);
    expect(stats.agentsWithPast / stats.agents).toBeLessThan(0.23);

    const { graph, summaries } = await graphOf(a);
    expect(summaries[0]).toMatchObject({ jurisdictions: 51, credentials: 6000, relationships: stats.relationships, rejected: [] });
    // Chains four deep: agent <- branch <- brokerage <- designated broker, all open.
    const [chains] = await graph.engine.read(
      "MATCH (d:LicenseCredential)-[r1:SUPERVISES]->(c:LicenseCredential)-[r2:SUPERVISES]->(o:LicenseCredential)-[r3:SUPERVISES]->(a:LicenseCredential) WHERE r1.effective_to IS NULL AND r2.effective_to IS NULL AND r3.effective_to IS NULL AND d.license_type = 'broker' AND c.license_type = 'brokerage' AND o.license_type = 'branch_office' AND a.license_type = 'salesperson' RETURN count(*) AS n",
    );
    expect(Number(chains.n)).toBeGreaterThan(10);
    // Surnames: a few very common, a long tail.
    const names = await graph.engine.read("MATCH (c:LicenseCredential) WHERE c.entity_type = 'person' RETURN c.last_name AS name, count(*) AS n ORDER BY n DESC");
    const persons = names.reduce((s, r) => s + Number(r.n), 0);
    expect(Number(names[0].n) / persons).toBeGreaterThan(0.005);
    expect(names.filter((r) => Number(r.n) === 1).length).toBeGreaterThan(names.length / 3);
  });
});
