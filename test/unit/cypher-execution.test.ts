import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphEngine } from '../../src/graph/graph-port.js';
import { paramsFor, queryVariants, sharedQueryNames } from '../helpers/cypher-files.js';
import { files, fixture, testGraph } from '../helpers/graph.js';
import { QUERY_PARAMS } from '../helpers/query-params.js';

// Read queries that must find something in the small fixture with the representative params.
const EXPECT_ROWS = new Set([
  'coverage/jurisdictions',
  'licensees/by-id',
  'licensees/records-by-ids',
  'licensees/jurisdiction-coverage',
  'licensees/type-counts',
  'relationships/affiliate-list',
  'import/jurisdiction-codes',
  'import/supervision-state-pairs',
  'analyst/broker-current-affiliates',
  'analyst/agent-supervision-history',
  'analyst/supervised-by-expired-licence',
]);

describe('every shared query file runs on LadybugDB', () => {
  let graph: GraphEngine;
  beforeAll(async () => {
    ({ graph } = await testGraph(fixture('small')));
  });
  afterAll(() => graph.close());

  // Import queries write: run them in the order an import does, after the reads.
  const names = sharedQueryNames(files).sort((a, b) => Number(a.startsWith('import/')) - Number(b.startsWith('import/')));
  for (const name of names) {
    it(`when cypher/${name}.cypher runs with its representative parameters then it succeeds`, async () => {
      const params = QUERY_PARAMS[name];
      expect(params, `test/helpers/query-params.ts has no parameters for ${name}`).toBeDefined();
      for (const { label, query } of queryVariants(files, name)) {
        const p = paramsFor(query, params);
        const rows = name.startsWith('import/') ? await graph.writeTransaction((tx) => tx.run(query, p)) : await graph.read(query, p);
        if (EXPECT_ROWS.has(name) && label !== 'with its filters') expect(rows.length, label).toBeGreaterThan(0);
      }
    });
  }

});
