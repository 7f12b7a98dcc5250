import type { TestProject } from 'vitest/node';

// Finds a Neo4j for the conformance suite (and, with TEST_GRAPH_ENGINE=neo4j, the whole suite):
// TEST_NEO4J_URI when set (never the service's own NEO4J_URI: the tests wipe the database), else a testcontainers Neo4j 5.26 when a container runtime exists, else
// none, with the reason. REQUIRE_NEO4J=1 makes "none" a failure.
declare module 'vitest' {
  export interface ProvidedContext {
    neo4j: { uri: string; user: string; password: string } | { skipped: string };
  }
}

/** The Neo4j image testcontainers starts: the patch pinned in tools/neo4j/pom.xml and docker-compose.yml. */
export const NEO4J_IMAGE = 'neo4j:5.26.30-community';

export default async function setup(project: TestProject) {
  const fail = (reason: string) => {
    if (process.env.REQUIRE_NEO4J === '1') throw new Error(`REQUIRE_NEO4J=1 but ${reason}`);
    project.provide('neo4j', { skipped: reason });
  };
  if (process.env.TEST_NEO4J_URI) {
    project.provide('neo4j', {
      uri: process.env.TEST_NEO4J_URI,
      user: process.env.TEST_NEO4J_USER ?? 'neo4j',
      password: process.env.TEST_NEO4J_PASSWORD ?? '',
    });
    return;
  }
  const { getContainerRuntimeClient } = await import('testcontainers');
  try {
    await getContainerRuntimeClient();
  } catch (err) {
    fail(`no TEST_NEO4J_URI and no container runtime for testcontainers (${(err as Error).message})`);
    return;
  }
  const { Neo4jContainer } = await import('@testcontainers/neo4j');
  const container = await new Neo4jContainer(NEO4J_IMAGE).withPassword('conformance-password').start();
  project.provide('neo4j', { uri: container.getBoltUri(), user: container.getUsername(), password: container.getPassword() });
  return async () => {
    await container.stop();
  };
}
