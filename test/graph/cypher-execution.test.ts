import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { paramsFor, queryVariants, sharedQueryNames } from '../helpers/cypher-files.js';
import { files, fixture, testGraph } from '../helpers/graph.js';
import { QUERY_PARAMS } from '../helpers/query-params.js';

// Read queries that must find something in the small fixture with the representative params.
const EXPECT_ROWS = new Set([
  'coverage/jurisdictions',
  'engine/ladybug/by-id',
  'engine/ladybug/records-by-ids',
  'engine/ladybug/jurisdiction-coverage',
  'licensees/type-counts',
  'engine/ladybug/affiliate-list',
  'import/jurisdiction-codes',
  'engine/ladybug/supervision-state-pairs',
]);

/** Writes among them run last, in a write transaction, in the order an import does. */
const writes = (name: string) => name.startsWith('import/') || name.startsWith('engine/ladybug/delete-');

describe('every shared query file, and every LadybugDB one that takes parameters, runs on LadybugDB', () => {
  let graph: GraphAdapters;
  beforeAll(async () => {
    ({ graph } = await testGraph(fixture('small')));
  });
  afterAll(() => graph.close());

  // Import queries write: run them in the order an import does, after the reads.
  // LadybugDB's bulk statements (COPY, and those that read a file's rows) run inside imports.
  const ladybug = files.names().filter((n) => n.startsWith('engine/ladybug/') && n in QUERY_PARAMS);
  const names = [...sharedQueryNames(files), ...ladybug].sort((a, b) => Number(writes(a)) - Number(writes(b)));
  for (const name of names) {
    it(`when cypher/${name}.cypher runs with its representative parameters then it succeeds`, async () => {
      const params = QUERY_PARAMS[name];
      expect(params, `test/helpers/query-params.ts has no parameters for ${name}`).toBeDefined();
      for (const { label, query } of queryVariants(files, name)) {
        const p = paramsFor(query, params);
        const rows = writes(name) ? await graph.engine.writeTransaction((tx) => tx.run(query, p)) : await graph.engine.read(query, p);
        if (EXPECT_ROWS.has(name) && label !== 'with its filters') expect(rows.length, label).toBeGreaterThan(0);
      }
    });
  }

});
