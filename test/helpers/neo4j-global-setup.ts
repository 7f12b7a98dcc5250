import type { TestProject } from 'vitest/node';
import { localNeo4jMissing, SHORT_LIVED_JVM, startLocalNeo4j, tempDir } from './local-neo4j.js';

// The Neo4j the `neo4j` project's files share (vitest.config.ts runs them one at a time; each
// wipes the database it starts from): TEST_NEO4J_URI when set (never the service's own NEO4J_URI:
// the tests wipe the database), else a testcontainers Neo4j when a container runtime exists, else
// the repo's own launcher (tools/neo4j) when Java is here. REQUIRE_NEO4J=1 makes "none" a failure.
declare module 'vitest' {
  export interface ProvidedContext {
    neo4j: { uri: string; user: string; password: string; browserUrl?: string } | { skipped: string };
  }
}

/** The Neo4j image testcontainers starts: the patch pinned in tools/neo4j/pom.xml and docker-compose.yml. */
export const NEO4J_IMAGE = 'neo4j:5.26.30-community';

/** Whether a container runtime answers, without loading testcontainers when none is configured. */
async function containerRuntime(): Promise<string | undefined> {
  const { getContainerRuntimeClient } = await import('testcontainers');
  try {
    await getContainerRuntimeClient();
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.TEST_NEO4J_URI) {
    project.provide('neo4j', {
      uri: process.env.TEST_NEO4J_URI,
      user: process.env.TEST_NEO4J_USER ?? 'neo4j',
      password: process.env.TEST_NEO4J_PASSWORD ?? '',
    });
    return;
  }
  const noContainers = await containerRuntime();
  if (!noContainers) {
    const { Neo4jContainer } = await import('@testcontainers/neo4j');
    const container = await new Neo4jContainer(NEO4J_IMAGE).withPassword('conformance-password').start();
    project.provide('neo4j', { uri: container.getBoltUri(), user: container.getUsername(), password: container.getPassword() });
    return () => container.stop().then(() => undefined);
  }
  const noLauncher = localNeo4jMissing();
  if (noLauncher) {
    const reason = `no TEST_NEO4J_URI, no container runtime (${noContainers}) and no local Neo4j (${noLauncher})`;
    if (process.env.REQUIRE_NEO4J === '1') throw new Error(`REQUIRE_NEO4J=1 but ${reason}`);
    project.provide('neo4j', { skipped: reason });
    return;
  }
  const data = tempDir('lvs-test-neo4j-');
  const neo4j = await startLocalNeo4j({ dataDir: data.dir, password: 'test-neo4j-password', browser: true, javaOpts: SHORT_LIVED_JVM });
  project.provide('neo4j', { uri: neo4j.uri, user: neo4j.user, password: neo4j.password, browserUrl: neo4j.browserUrl });
  return async () => {
    await neo4j.stop();
    data.remove();
  };
}
