import { afterEach, describe, expect, it } from 'vitest';
import { credentialId } from '../../src/domain/identity.js';
import { importRepo } from '../../src/deps.js';
import type { GraphEngine } from '../../src/graph/graph-port.js';
import { importFolder } from '../../src/ingest/canonical-import.js';
import { createLicenseesRepo } from '../../src/modules/licensees/licensees.repo.js';
import { createRelationshipsRepo } from '../../src/modules/relationships/relationships.repo.js';
import { files, fixture, testGraph } from '../helpers/graph.js';
import { folderWith } from '../helpers/source-files.js';

// The supervision read models (SupervisorList of affiliates, AffiliateList of supervisors) that
// every read of supervision starts from: they must follow every write, and a graph without them
// gets them.
const TODAY = () => '2026-11-22';
const REL_HEADER = 'supervisor_state,supervisor_license_number,affiliate_state,affiliate_license_number,affiliate_role,relationship_type,effective_from,effective_to,source';
const AGENT = credentialId('TX', '763827-SA');
const BROKERAGE = credentialId('TX', '100001-B');

describe('the supervision read models', () => {
  let graph: GraphEngine | undefined;
  afterEach(async () => {
    await graph?.close();
    graph = undefined;
  });

  const wire = (g: GraphEngine) => ({ licensees: createLicenseesRepo(g, files, TODAY), relationships: createRelationshipsRepo(g, files, TODAY) });
  const snapshot = async (g: GraphEngine) => ({
    supervisors: await g.read('MATCH (x:SupervisorList) RETURN x.id AS id, x.state AS state, x.entries AS entries ORDER BY x.id'),
    affiliates: await g.read('MATCH (x:AffiliateList) RETURN x.id AS id, x.state AS state, x.entries AS entries ORDER BY x.id'),
  });

  it('when an import ends a relationship then supervisors and affiliates read afterwards no longer list it', async () => {
    ({ graph } = await testGraph(fixture('small')));
    const { licensees, relationships } = wire(graph);
    const supervisorsOf = async () => (await licensees.openSupervisors([AGENT])).map((s) => s.license_number);
    const affiliateNumbers = async () => (await relationships.affiliates(BROKERAGE, {}, 0, 100)).rows.map((r) => r.license_number);
    expect(await supervisorsOf()).toEqual(['100001-B']);
    const before = await affiliateNumbers();
    expect(before).toContain('763827-SA');

    const summary = await importFolder(
      importRepo(graph, files),
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

  it('when a graph holds relationships without read models then they are found missing and computed as an import writes them', async () => {
    ({ graph } = await testGraph(fixture('small')));
    const imports = importRepo(graph, files);
    const written = await snapshot(graph);
    expect(written.supervisors.length).toBeGreaterThan(3);
    expect(written.affiliates.length).toBeGreaterThan(3);
    expect(await imports.readModelsMissing()).toBe(false);

    await graph.writeTransaction(async (tx) => {
      await tx.run('MATCH (x:SupervisorList) DELETE x');
      await tx.run('MATCH (x:AffiliateList) DELETE x');
    });
    expect(await imports.readModelsMissing()).toBe(true);
    await imports.refreshReadModels(await imports.jurisdictionCodes());
    expect(await snapshot(graph)).toEqual(written);
    expect(await imports.readModelsMissing()).toBe(false);
  });

  it('when records are read again then they come without a query until a write, after which they are read anew', async () => {
    ({ graph } = await testGraph(fixture('small')));
    const g = graph;
    let reads = 0;
    const counted: GraphEngine = { ...g, read: (q, p) => ((reads += 1), g.read(q, p)) };
    const { licensees } = wire(counted);
    const [first] = await licensees.byIds([AGENT]);
    const afterFirst = reads;
    // The credential's key read and the jurisdictions' coverage.
    expect(afterFirst).toBe(2);
    expect(await licensees.byIds([AGENT])).toEqual([first]);
    expect(reads).toBe(afterFirst);
    await importFolder(importRepo(g, files), folderWith({ 'relationships.csv': `${REL_HEADER}\nTX,100001-B,TX,763827-SA,salesperson,sponsoring_broker,2020-06-01,2026-11-01,fixture\n` }));
    const [again] = await licensees.byIds([AGENT]);
    expect(reads).toBe(afterFirst + 2);
    expect(again.supervision).not.toEqual(first.supervision);
  });
});
