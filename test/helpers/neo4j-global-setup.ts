import type { TestProject } from 'vitest/node';
import fs from 'node:fs';
import path from 'node:path';
import { launchLocalNeo4j, localNeo4jMissing, SHORT_LIVED_JVM, SUITE_NEO4J_SETTINGS, tempDir } from './local-neo4j.js';

// The Neo4j the `neo4j` project's files use (each wipes the database it starts from):
// TEST_NEO4J_URI when set (never the service's own NEO4J_URI: the tests wipe the database), else a
// testcontainers Neo4j when a container runtime exists, else the repo's own launcher (tools/neo4j)
// when Java is here, which starts NEO4J_INSTANCES of them. REQUIRE_NEO4J=1 makes "none" a failure.
// A test file takes an instance for itself while it runs (test/helpers/neo4j-instance-setup.ts).
declare module 'vitest' {
  export interface ProvidedContext {
    neo4j: Neo4jInstance | { skipped: string };
    /** Every instance, and the folder of their claims. */
    neo4jInstances: { instances: Neo4jInstance[]; claims: string };
  }
}

export interface Neo4jInstance {
  uri: string;
  user: string;
  password: string;
  browserUrl?: string;
}

/** Where a test file finds the index of the instance it holds, in `neo4jInstances.instances`. */
export const NEO4J_INSTANCE_ENV = 'LVS_TEST_NEO4J_INSTANCE';

/** Instances the launcher starts: one per worker of the neo4j project (vitest.config.ts). */
export const NEO4J_INSTANCES = 2;

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
  const claims = tempDir('lvs-test-neo4j-claims-');
  // A file of this project waits for its instance's marker in the claims folder
  // (neo4j-instance-setup.ts): `ready-<i>`, or `failed-<i>` holding why.
  const provide = (instances: Neo4jInstance[], ready: Promise<void>[] = []) => {
    instances.forEach((_, i) =>
      (ready[i] ?? Promise.resolve()).then(
        () => fs.writeFileSync(path.join(claims.dir, `ready-${i}`), ''),
        (err: Error) => fs.writeFileSync(path.join(claims.dir, `failed-${i}`), err.message),
      ),
    );
    project.provide('neo4j', instances[0]);
    project.provide('neo4jInstances', { instances, claims: claims.dir });
  };
  project.provide('neo4jInstances', { instances: [], claims: claims.dir });
  if (process.env.TEST_NEO4J_URI) {
    provide([{ uri: process.env.TEST_NEO4J_URI, user: process.env.TEST_NEO4J_USER ?? 'neo4j', password: process.env.TEST_NEO4J_PASSWORD ?? '' }]);
    return claims.remove;
  }
  const noContainers = await containerRuntime();
  if (!noContainers) {
    const { Neo4jContainer } = await import('@testcontainers/neo4j');
    const container = await new Neo4jContainer(NEO4J_IMAGE).withPassword('conformance-password')
      .withEnvironment(Object.fromEntries(Object.entries(SUITE_NEO4J_SETTINGS).map(([k, v]) => [`NEO4J_${k.replaceAll('_', '__').replaceAll('.', '_')}`, v])))
      .start();
    provide([{ uri: container.getBoltUri(), user: container.getUsername(), password: container.getPassword() }]);
    return async () => {
      await container.stop();
      claims.remove();
    };
  }
  const noLauncher = localNeo4jMissing();
  if (noLauncher) {
    const reason = `no TEST_NEO4J_URI, no container runtime (${noContainers}) and no local Neo4j (${noLauncher})`;
    if (process.env.REQUIRE_NEO4J === '1') throw new Error(`REQUIRE_NEO4J=1 but ${reason}`);
    project.provide('neo4j', { skipped: reason });
    return claims.remove;
  }
  // Not waited for here: they start while the ladybug project runs.
  const dirs = Array.from({ length: NEO4J_INSTANCES }, () => tempDir('lvs-test-neo4j-'));
  const launched = await Promise.all(dirs.map((d) => launchLocalNeo4j({ dataDir: d.dir, password: 'test-neo4j-password', browser: true, javaOpts: SHORT_LIVED_JVM, settings: SUITE_NEO4J_SETTINGS })));
  provide(
    launched.map(({ instance: n }) => ({ uri: n.uri, user: n.user, password: n.password, browserUrl: n.browserUrl })),
    launched.map(({ ready }) => ready),
  );
  return async () => {
    await Promise.allSettled(launched.map(({ ready }) => ready));
    await Promise.all(launched.map(({ instance }) => instance.stop()));
    dirs.forEach((d) => d.remove());
    claims.remove();
  };
}
