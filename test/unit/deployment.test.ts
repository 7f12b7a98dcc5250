import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NEO4J_IMAGE } from '../helpers/neo4j-global-setup.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const hasCompose = spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0;
if (!hasCompose) {
  if (process.env.REQUIRE_COMPOSE === '1') throw new Error("REQUIRE_COMPOSE=1 but Debian's docker-compose is not installed");
  console.warn("docker-compose (Debian's package) is not installed: the compose file check is skipped");
}

const compose = (env: Record<string, string>) =>
  spawnSync('docker-compose', ['-f', 'docker-compose.yml', 'config'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env },
  });

describe.skipIf(!hasCompose)("docker-compose.yml under Debian's docker-compose", () => {
  it('when the passwords are given then `docker-compose config` accepts it with the three services wired to healthy stores', () => {
    const res = compose({ NEO4J_PASSWORD: 'n-secret', POSTGRES_PASSWORD: 'p-secret' });
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain(`image: ${NEO4J_IMAGE}`);
    expect(res.stdout).toMatch(/7474/);
    expect(res.stdout).toMatch(/NEO4J_URI: bolt:\/\/neo4j:7687/);
    expect(res.stdout).toMatch(/DATABASE_URL: postgresql:\/\/lvs:p-secret@postgres:5432\/lvs/);
    expect(res.stdout.match(/condition: service_healthy/g)).toHaveLength(2);
    expect(res.stdout).toMatch(/DEMO_DATA: 'false'|DEMO_DATA: "false"|DEMO_DATA: false/);
  });

  it('when a password is missing then it refuses, naming it', () => {
    const res = compose({ POSTGRES_PASSWORD: 'p' });
    expect(res.status).not.toBe(0);
    expect(res.stderr).toMatch(/NEO4J_PASSWORD/);
  });
});

describe('one Neo4j patch everywhere', () => {
  it('when the local launcher, the compose file and the testcontainers image are read then they pin the same 5.26 patch', () => {
    const pom = /<neo4j\.version>([^<]+)<\/neo4j\.version>/.exec(fs.readFileSync(`${ROOT}/tools/neo4j/pom.xml`, 'utf8'))?.[1];
    const composed = /image: neo4j:(\S+)-community/.exec(fs.readFileSync(`${ROOT}/docker-compose.yml`, 'utf8'))?.[1];
    expect(pom).toMatch(/^5\.26\.\d+$/);
    expect(composed).toBe(pom);
    expect(NEO4J_IMAGE).toBe(`neo4j:${pom}-community`);
  });
});

describe('the Dockerfile', () => {
  it('when read then it builds in stages and runs the server as a non-root user', () => {
    const text = fs.readFileSync(`${ROOT}/Dockerfile`, 'utf8');
    expect(text.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/^USER node$/m);
    expect(text).toMatch(/COPY --from=deps/);
    expect(text).toMatch(/^CMD \["node", "--import", "tsx", "src\/main\.ts"\]$/m);
  });
});
