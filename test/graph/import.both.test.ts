import fs from 'node:fs';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { credentialId } from '../../src/domain/identity.js';
import { GraphError } from '../../src/errors.js';
import { importsOf } from '../../src/compose/index.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { importFolder } from '../../src/ingest/load.js';
import { DEMO_SEEDS, TEST_ENGINE, files, fixture, testGraph } from '../helpers/graph.js';
import { folderWith } from '../helpers/source-files.js';

const CRED_HEADER = fs.readFileSync(fixture('small/credentials.csv'), 'utf8').split('\n')[0];
const JUR_HEADER = 'state,status,refresh_frequency,relationship_coverage,relationship_coverage_notes,source_id,source_name,source_url,source_format';
const jurisdiction = (state: string) => `${JUR_HEADER}\n${state},active,weekly,source_not_published,,${state.toLowerCase()}-src,,,\n`;
const REL_HEADER = 'supervisor_state,supervisor_license_number,affiliate_state,affiliate_license_number,affiliate_role,relationship_type,effective_from,effective_to,source';

/** Counts of everything an import writes, read straight from the graph. */
async function census(graph: GraphAdapters) {
  const count = async (q: string) => Number((await graph.engine.read(q))[0].n);
  return {
    credentials: await count('MATCH (c:LicenseCredential) RETURN count(c) AS n'),
    licensees: await count('MATCH (l:Licensee) RETURN count(l) AS n'),
    holds: await count('MATCH (:Licensee)-[h:HOLDS]->(:LicenseCredential) RETURN count(h) AS n'),
    supervises: await count('MATCH (:LicenseCredential)-[r:SUPERVISES]->(:LicenseCredential) RETURN count(r) AS n'),
    brokerages: await count('MATCH (b:Brokerage) RETURN count(b) AS n'),
    affiliated: await count('MATCH (:LicenseCredential)-[a:AFFILIATED_WITH]->(:Brokerage) RETURN count(a) AS n'),
    jurisdictions: await count('MATCH (j:Jurisdiction) RETURN count(j) AS n'),
    inJurisdiction: await count('MATCH (:LicenseCredential)-[r:IN_JURISDICTION]->(:Jurisdiction) RETURN count(r) AS n'),
  };
}

describe('canonical import', () => {
  let graph: GraphAdapters | undefined;
  afterEach(async () => {
    await graph?.close();
    graph = undefined;
  });

  it('when a folder has bad rows then each is reported with file, line and reason and the good rows are kept', async () => {
    const { graph: g, summaries } = await testGraph(fixture('small'));
    graph = g;
    expect(summaries[0].rejected).toEqual([
      { file: 'credentials.csv', line: 12, reason: 'status: status is required' },
      { file: 'credentials.csv', line: 13, reason: 'status: published status "Mystery Status" is not in the status table; give status_normalized' },
      { file: 'credentials.csv', line: 14, reason: 'state: is not a U.S. jurisdiction code' },
      { file: 'relationships.csv', line: 8, reason: 'supervisor TX 100001-B or affiliate TX 999999-SA is not on file' },
      { file: 'relationships.csv', line: 9, reason: 'effective_to: must be after effective_from' },
    ]);
    expect(summaries[0]).toMatchObject({ jurisdictions: 3, credentials: 10, relationships: 6 });
    expect(await census(g)).toMatchObject({ credentials: 10, supervises: 6, jurisdictions: 3, inJurisdiction: 10, affiliated: 2, brokerages: 1 });
  });

  it('when the same folder is imported twice then nothing changes', async () => {
    const { graph: g } = await testGraph(fixture('small'));
    graph = g;
    const before = await census(g);
    await importFolder(importsOf(g, files), fixture('small'));
    expect(await census(g)).toEqual(before);
  });

  it('when a row changes then the record is updated in place, never duplicated', async () => {
    const { graph: g } = await testGraph(fixture('small'));
    graph = g;
    const before = await census(g);
    const changed = folderWith({
      'credentials.csv': `${CRED_HEADER}\nNY,00055592,salesperson,REAL ESTATE SALESPERSON,Suspended,,person,BERMAN CAROL,CAROL,,BERMAN,,,,2027-04-29,business,9 NEW RD,,YONKERS,,NY,10701,,EMPIRE REALTY,,fixture,2026-11-08,2026-11-08T06:00:00Z,\n`,
      'relationships.csv': `${REL_HEADER}\nTX,100001-B,TX,763827-SA,salesperson,sponsoring_broker,2020-06-01,2026-11-01,fixture\n`,
    });
    const summary = await importFolder(importsOf(g, files), changed);
    expect(summary.rejected).toEqual([]);
    expect(await census(g)).toEqual({ ...before, brokerages: 2 });
    const [row] = await g.engine.read(
      'MATCH (c:LicenseCredential {id: $id})-[:AFFILIATED_WITH]->(b:Brokerage) RETURN c.status AS status, c.status_normalized AS s, c.address_city AS city, b.name AS brokerage',
      { id: credentialId('NY', '00055592') },
    );
    expect(row).toEqual({ status: 'Suspended', s: 'suspended', city: 'YONKERS', brokerage: 'EMPIRE REALTY' });
    const [edge] = await g.engine.read(
      'MATCH (s:LicenseCredential {id: $s})-[r:SUPERVISES]->(a:LicenseCredential {id: $a}) RETURN r.effective_to AS effective_to',
      { s: credentialId('TX', '100001-B'), a: credentialId('TX', '763827-SA') },
    );
    expect(edge.effective_to).toBe('2026-11-01');
  });

  it('when a CSV line has the wrong number of fields then it is reported and the lines around it load', async () => {
    const { graph: g } = await testGraph();
    graph = g;
    const folder = folderWith({
      'jurisdictions.csv': jurisdiction('OR'),
      'credentials.csv': [
        CRED_HEADER,
        'OR,1,broker,,Active,,person,ANN ONE,ANN,,ONE,,,,,,,,,,,,,,,src,,,',
        'OR,2,broker,,Active',
        'OR,3,broker,,Active,,person,CAL THREE,CAL,,THREE,,,,,,,,,,,,,,,src,,,',
        '',
      ].join('\n'),
    });
    const summary = await importFolder(importsOf(g, files), folder);
    expect(summary.rejected).toHaveLength(1);
    expect(summary.rejected[0]).toMatchObject({ file: 'credentials.csv', line: 3 });
    expect(summary.rejected[0].reason).toMatch(/^malformed CSV: /);
    const numbers = (await g.engine.read('MATCH (c:LicenseCredential) RETURN c.license_number AS n ORDER BY n')).map((r) => r.n);
    expect(numbers).toEqual(['1', '3']);
  });

  it('when a quote is never closed then the rest of the file is one broken record: reported, earlier rows kept', async () => {
    const { graph: g } = await testGraph();
    graph = g;
    const folder = folderWith({
      'jurisdictions.csv': jurisdiction('OR'),
      'credentials.csv': [
        CRED_HEADER,
        'OR,1,broker,,Active,,person,ANN ONE,ANN,,ONE,,,,,,,,,,,,,,,src,,,',
        'OR,2,broker,,Active,,person,"BROKEN QUOTE,,,,,,,,,,,,,,,,,,,src,,,',
        'OR,3,broker,,Active,,person,CAL THREE,CAL,,THREE,,,,,,,,,,,,,,,src,,,',
      ].join('\n'),
    });
    const summary = await importFolder(importsOf(g, files), folder);
    expect(summary.rejected.map((r) => [r.line, r.reason.startsWith('malformed CSV: ')])).toEqual([[3, true]]);
    expect(summary.rejected[0].reason).toMatch(/quote/i);
    expect(summary.credentials).toBe(1);
  });

  it('when a real import of a state arrives then that state’s demo records go and the others stay', async () => {
    const { graph: g } = await testGraph(DEMO_SEEDS);
    graph = g;
    const stateCount = async (state: string) =>
      Number((await g.engine.read('MATCH (j:Jurisdiction {code: $s})<-[:IN_JURISDICTION]-(c:LicenseCredential) RETURN count(c) AS n', { s: state }))[0].n);
    expect(await stateCount('TX')).toBe(150);
    const real = folderWith({
      'credentials.csv': `${CRED_HEADER}\nTX,555555-SA,salesperson,Sales Agent,Active,,person,REAL PERSON,REAL,,PERSON,,,,,,,,,,,,,,,tx-trec,2026-11-20,,\n`,
    });
    const summary = await importFolder(importsOf(g, files), real);
    expect(summary.demo_records_removed_for).toEqual(['TX']);
    expect(await stateCount('TX')).toBe(1);
    // The same file again removes nothing, and says so.
    expect((await importFolder(importsOf(g, files), real)).demo_records_removed_for).toEqual([]);
    expect(await stateCount('FL')).toBe(129);
    const [tx] = await g.engine.read('MATCH (j:Jurisdiction {code: "TX"}) RETURN j.record_count AS n');
    expect(tx.n).toBe(1);
    // Relationships of removed demo credentials went with them; FL's stay.
    const [rels] = await g.engine.read("MATCH (s:LicenseCredential)-[r:SUPERVISES]->(a:LicenseCredential) WHERE a.state = 'TX' RETURN count(r) AS n");
    expect(rels.n).toBe(0);
  });

  it('when a large file is imported then it loads in batches and every row lands', async () => {
    const { graph: g } = await testGraph();
    graph = g;
    // Five batches and a short last one; small batches keep each transaction far inside the
    // suite's query timeout on a loaded CI machine (a batch of 1,000 once took over 30 s there).
    const rows = Array.from({ length: 2100 }, (_, i) => `WY,${100000 + i},salesperson,,Active,,person,P ${i},P,,L${i % 97},,,,,,,,,,,,,,,wy-src,,,`);
    const folder = folderWith({ 'jurisdictions.csv': jurisdiction('WY'), 'credentials.csv': `${CRED_HEADER}\n${rows.join('\n')}\n` });
    const summary = await importFolder(importsOf(g, files), folder, { batchSize: 500 });
    expect(summary).toMatchObject({ credentials: 2100, rejected: [] });
    expect((await census(g)).credentials).toBe(2100);
  });

  it('when a credential names a state with no jurisdiction row, or overrides the status table, then the row is rejected', async () => {
    const { graph: g } = await testGraph(fixture('small'));
    graph = g;
    const folder = folderWith({
      'credentials.csv': [
        CRED_HEADER,
        'OR,1,broker,,Active,,person,ANN ONE,ANN,,ONE,,,,,,,,,,,,,,,src,,,',
        'TX,2,broker,,Revoked,active,person,BOB TWO,BOB,,TWO,,,,,,,,,,,,,,,src,,,',
        'TX,3,broker,,Gone Fishing,inactive,person,CY THREE,CY,,THREE,,,,,,,,,,,,,,,src,,,',
      ].join('\n'),
    });
    const summary = await importFolder(importsOf(g, files), folder);
    expect(summary.rejected).toEqual([
      { file: 'credentials.csv', line: 2, reason: 'no jurisdiction OR on file: give it a jurisdictions.csv row first' },
      { file: 'credentials.csv', line: 3, reason: 'status_normalized: published status "Revoked" maps to inactive in the status table, not active' },
    ]);
    // A status the table does not know is accepted with the row's own filter value.
    const [row] = await g.engine.read("MATCH (c:LicenseCredential {id: $id}) RETURN c.status_normalized AS s", { id: credentialId('TX', '3') });
    expect(row.s).toBe('inactive');
  });

  it('when the folder does not exist or holds no known file then it says so', async () => {
    const { graph: g } = await testGraph();
    graph = g;
    await expect(importFolder(importsOf(g, files), '/nonexistent/folder')).rejects.toThrow(/not found/);
    await expect(importFolder(importsOf(g, files), folderWith({ 'other.csv': 'a\n1\n' }))).rejects.toThrow(/holds none of/);
  });
});

describe.skipIf(TEST_ENGINE !== 'neo4j')('a write past Neo4j transaction memory', () => {
  it('when one transaction outgrows db.memory.transaction.total.max then the error names the setting, its value and what to do, not the driver text, and nothing lands', async () => {
    const { graph: g } = await testGraph();
    onTestFinished(() => g.close());
    // Millions of nodes in one transaction: Neo4j holds them all on its heap until the commit.
    const failed = await g.engine
      .writeLarge((t) => t.run("UNWIND range(1, 6000000) AS i CREATE (:MemoryProbe {i: i, s: 'a string to take some room'})"))
      .then(() => undefined, (err: unknown) => err as Error);
    expect(failed?.message).toMatch(/^Neo4j stopped the write: one transaction needed more memory than db\.memory\.transaction\.(total\.)?max allows \(currently [\d.]+ \w+\)\. .*raise db\.memory\.transaction\.(total\.)?max .*NEO4J_db_memory_transaction_(total_)?max/);
    expect(failed?.message).not.toMatch(/threshold reached|allocation of an extra/);
    expect(await g.engine.read('MATCH (p:MemoryProbe) RETURN count(p) AS n')).toEqual([{ n: 0 }]);
  });

  it('when a read finds no transaction memory free then it is a transient error (503: retry) that names the setting, not the driver text', async () => {
    const { graph: g } = await testGraph();
    onTestFinished(() => g.close());
    // A list larger than the pool every transaction shares, as a read that finds it held by a refresh.
    const failed = await g.engine.read('UNWIND range(1, 40000000) AS i WITH collect(i) AS l RETURN size(l) AS n').then(() => undefined, (err: unknown) => err as GraphError);
    expect(failed).toBeInstanceOf(GraphError);
    expect(failed).toMatchObject({ transient: true });
    expect(failed?.message).toMatch(/^Neo4j had no transaction memory for a read: the running transactions \(an import or a refresh\) hold what db\.memory\.transaction\.total\.max allows \(currently [\d.]+ \w+\)\. Retry shortly/);
  });
});
