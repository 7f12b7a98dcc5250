import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import { analystQueryNames, paramsFor } from '../helpers/cypher-files.js';
import { files, fixture, testGraph } from '../helpers/graph.js';
import { QUERY_PARAMS } from '../helpers/query-params.js';

// The analysts' queries that must find something in the small fixture with the representative params.
const EXPECT_ROWS = new Set(['analyst/broker-current-affiliates', 'analyst/agent-supervision-history', 'analyst/supervised-by-expired-licence', 'analyst/broker-roster-by-month']);

describe('every analyst query runs on Neo4j, as Neo4j Browser runs it', () => {
  let graph: GraphAdapters;
  beforeAll(async () => {
    ({ graph } = await testGraph(fixture('small')));
  });
  afterAll(() => graph?.close());

  for (const name of analystQueryNames(files)) {
    it(`when cypher/${name}.cypher runs with its representative parameters then it succeeds`, async () => {
      const params = QUERY_PARAMS[name];
      expect(params, `test/helpers/query-params.ts has no parameters for ${name}`).toBeDefined();
      const rows = await graph.engine.read(files.get(name), paramsFor(files.get(name), params));
      if (EXPECT_ROWS.has(name)) expect(rows.length).toBeGreaterThan(0);
    });
  }

  it('when a refresh\'s unpublished version sits beside the published one then the analyst query reads the published one only', async () => {
    const query = files.get('analyst/broker-current-affiliates');
    const params = paramsFor(query, QUERY_PARAMS['analyst/broker-current-affiliates']);
    const before = await graph.engine.read(query, params);
    // A version of every relationship out of the broker, valid from a generation not yet published.
    await graph.engine.writeTransaction((tx) =>
      tx.run(
        `OPTIONAL MATCH (snapshot:Snapshot {id: 'graph'}) WITH coalesce(snapshot.generation, 0) AS g
         MATCH (b:LicenseCredential {state: $state, license_number: $license_number})-[r:SUPERVISES]->(a)
         CREATE (b)-[n:SUPERVISES]->(a) SET n = properties(r), n.vf = g + 1`,
        { state: params.state, license_number: params.license_number },
      ),
    );
    try {
      expect(await graph.engine.read(query, params)).toEqual(before);
    } finally {
      await graph.engine.writeTransaction((tx) => tx.run('MATCH ()-[n:SUPERVISES]->() WHERE n.vf IS NOT NULL AND n.vf > 0 DELETE n'));
    }
  });
});
