import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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
    expect(res.stdout).toMatch(/image: neo4j:5\.26-community/);
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

describe('the Dockerfile', () => {
  it('when read then it builds in stages and runs the server as a non-root user', () => {
    const text = fs.readFileSync(`${ROOT}/Dockerfile`, 'utf8');
    expect(text.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/^USER node$/m);
    expect(text).toMatch(/COPY --from=deps/);
    expect(text).toMatch(/^CMD \["node", "--import", "tsx", "src\/main\.ts"\]$/m);
  });
});
