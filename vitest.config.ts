import fs from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';
import { localNeo4jMissing } from './test/helpers/local-neo4j.js';
import { SHORT_LIVED_NODE } from './test/helpers/processes.js';
import LongestFirst from './test/helpers/sequencer.js';

// Two projects, one after the other. `ladybug` is the whole suite on the embedded default, files
// two at a time. `neo4j` then runs, also two files at a time, the files whose name says they run on
// both engines (*.both.test.ts: what reads or writes the graph) and those for Neo4j alone
// (*.neo4j.test.ts); accounts, HTTP conventions and the contract do not depend on the engine. Each
// file wipes the database it starts from (Community has one user database), so it claims a Neo4j
// for itself while it runs (test/helpers/neo4j-instance-setup.ts): the repo's launcher starts two,
// TEST_NEO4J_URI or testcontainers give one, which files then take in turn.
// test/helpers/neo4j-global-setup.ts finds or starts them; without one the project is left out,
// saying why once. Files that start a Neo4j of their own (the outage drill, the offline import) run
// in `ladybug`, beside the others, and skip saying why where no local Neo4j can run.
const NEO4J_FILES = ['test/**/*.both.test.ts', 'test/**/*.neo4j.test.ts'];

function neo4jUnavailable(): string | undefined {
  if (process.env.TEST_NEO4J_URI || process.env.REQUIRE_NEO4J === '1') return undefined;
  if (process.env.DOCKER_HOST || fs.existsSync('/var/run/docker.sock')) return undefined;
  const missing = localNeo4jMissing();
  return missing && `no TEST_NEO4J_URI, no container runtime, and no local Neo4j: ${missing}`;
}
const unavailable = neo4jUnavailable();
if (unavailable && !process.env.LVS_NEO4J_SKIP_SAID) {
  process.env.LVS_NEO4J_SKIP_SAID = '1';
  console.warn(`\nThe suite's Neo4j runs are skipped: ${unavailable}.\n`);
}

export default defineConfig({
  test: {
    // Generous bounds: a test fails on what it sees, never on a busy machine's pace.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // The forks live a file long: the V8 flags of the suite's short-lived processes (test/helpers/processes.ts).
    execArgv: SHORT_LIVED_NODE,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'ladybug',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/**/*.neo4j.test.ts'],
          globalSetup: ['test/helpers/openapi-global-setup.ts'],
          setupFiles: ['test/helpers/temp-dir-setup.ts'],
          // Each LadybugDB database holds a buffer pool; two forks keep memory and the 2 cores in check.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      ...(unavailable
        ? []
        : [
            {
              extends: true as const,
              test: {
                name: 'neo4j',
                include: NEO4J_FILES,
                env: { TEST_GRAPH_ENGINE: 'neo4j' },
                globalSetup: ['test/helpers/neo4j-global-setup.ts', 'test/helpers/openapi-global-setup.ts'],
                setupFiles: ['test/helpers/temp-dir-setup.ts', 'test/helpers/neo4j-instance-setup.ts'],
                maxWorkers: 2,
                // One module cache a worker: imports and PGlite's compile once a worker, not once a file (decision 0031).
                isolate: false,
                sequence: { groupOrder: 1 },
              },
            },
          ]),
    ],
  },
});
