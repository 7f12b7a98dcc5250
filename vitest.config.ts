import { defineConfig } from 'vitest/config';

// TEST_GRAPH_ENGINE=neo4j points the whole suite at one Neo4j database: files then run one at a time.
const onNeo4j = process.env.TEST_GRAPH_ENGINE === 'neo4j';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/neo4j-global-setup.ts', 'test/helpers/openapi-global-setup.ts'],
    fileParallelism: !onNeo4j,
    // Generous bounds: a test fails on what it sees, never on a busy machine's pace.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Each LadybugDB database holds a buffer pool; two forks keep memory and the 2 cores in check.
    pool: 'forks',
    maxWorkers: 2,
  },
});
