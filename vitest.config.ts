import { defineConfig } from 'vitest/config';

// TEST_GRAPH_ENGINE=neo4j points the whole suite at one Neo4j database: files then run one at a time.
const onNeo4j = process.env.TEST_GRAPH_ENGINE === 'neo4j';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/neo4j-global-setup.ts'],
    fileParallelism: !onNeo4j,
    testTimeout: 30000,
    hookTimeout: 60000,
    // Each LadybugDB database holds a buffer pool; two forks keep memory and the 2 cores in check.
    pool: 'forks',
    maxWorkers: 2,
  },
});
