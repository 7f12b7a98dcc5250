// The client's smoke run on Neo4j (.ci/run, after npm test): a real server on a local Neo4j and
// PostgreSQL, every operation called once through the committed client, then the package as
// `npm pack` makes it, installed into an empty project and called from plain Node.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { compose } from '../../src/compose/index.js';
import { loadConfig } from '../../src/config.js';
import { credentialId } from '../../src/domain/identity.js';
import { openPostgres } from '../../src/store/postgres-store.js';
import { exercise } from '../../test/contract/client/usage.js';
import { SHORT_LIVED_JVM, fetchNeo4jJars, startLocalNeo4j, tempDir } from '../../test/helpers/local-neo4j.js';
import { ROOT, runScript, startServer } from '../../test/helpers/processes.js';
import { postgresSchema } from '../../test/helpers/stores.js';

const SUCCESS: Record<string, number> = { createVerificationJob: 202, createVerificationReview: 201 };
const cleanups: (() => unknown)[] = [];
const folder = (prefix: string) => {
  const made = tempDir(prefix);
  cleanups.push(made.remove);
  return made.dir;
};
const step = (what: string) => console.log(`client smoke on Neo4j: ${what}`);

try {
  fetchNeo4jJars();
  const neo4j = await startLocalNeo4j({ dataDir: folder('lvs-smoke-neo4j-'), password: 'smoke-password', javaOpts: SHORT_LIVED_JVM });
  cleanups.push(() => neo4j.stop());
  const schema = await postgresSchema(process.env.TEST_DATABASE_URL);
  cleanups.push(() => schema.drop());
  const dataDir = folder('lvs-smoke-data-');
  const env = { NEO4J_URI: neo4j.uri, NEO4J_USER: neo4j.user, NEO4J_PASSWORD: neo4j.password, DATABASE_URL: schema.url, DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' };
  // The exercise subscribes a webhook on loopback (nothing listens there): allowed for this run only.
  step(`Neo4j at ${neo4j.uri}`);

  const imported = runScript('src/cli/import.ts', [path.join(ROOT, 'test/fixtures/small')], env);
  if (imported.status !== 0) throw new Error(`the import failed:\n${imported.stdout}${imported.stderr}`);
  const created = runScript('src/cli/admin.ts', ['accounts', 'create', '--email', 'smoke@example.com', '--plan', 'enterprise'], env);
  const key = /lvs_live_[A-Za-z0-9_-]+/.exec(created.stdout)?.[0];
  if (!key) throw new Error(`no key from the admin command:\n${created.stdout}${created.stderr}`);
  const server = await startServer(env);
  cleanups.push(() => (server.child.kill('SIGTERM'), server.exited));
  step(`the service at ${server.url}`);

  // A change event published as a refresh would, through the same side store.
  const store = await openPostgres(schema.url, 2);
  cleanups.push(() => store.close());
  const side = await compose(loadConfig(env), { store }).side();
  const publish = async () => {
    const runId = randomUUID();
    const at = new Date().toISOString();
    await side.changes.log.stage({ id: runId, source: 'tx-trec', state: 'TX', snapshot_date: at.slice(0, 10) }, [
      { type: 'status_changed', state: 'TX', license_number: '763827-SA', license_credential_id: credentialId('TX', '763827-SA'), old: { status: 'Active' }, new: { status: 'Inactive' }, relationship: null, snapshot_date: at.slice(0, 10), detected_at: at, source: 'tx-trec' },
    ]);
    await side.changes.log.commit(runId);
  };
  const statuses = await exercise(server.url, key, publish);
  // The runner may finish the exercise's one-row job before it is cancelled: 409, as documented.
  const wrong = Object.entries(statuses).filter(([op, status]) => status !== (SUCCESS[op] ?? 200) && !(op === 'cancelVerificationJob' && status === 409));
  if (wrong.length) throw new Error(`operations that did not answer their documented success: ${JSON.stringify(wrong)}`);
  step(`${Object.keys(statuses).length} operations answered their documented success`);

  // The package as people install it: npm pack, then npm install of the tarball into an empty project.
  const project = folder('lvs-smoke-project-');
  execFileSync('npm', ['pack', path.join(ROOT, 'clients/typescript'), '--pack-destination', project, '--silent'], { cwd: ROOT, encoding: 'utf8' });
  const tarball = fs.readdirSync(project).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error('npm pack made no tarball');
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'smoke', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--silent', `./${tarball}`], { cwd: project, encoding: 'utf8' });
  const script = `import { LvsClient, OPENAPI_SHA256 } from '@lvs/client';
const client = new LvsClient({ baseUrl: process.env.URL, apiKey: process.env.KEY });
const { data } = await client.api.verifyLicense({ state: 'TX', license_number: '763827-SA' });
console.log(JSON.stringify({ verdict: data.verdict, hash: OPENAPI_SHA256.length }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: project, env: { ...process.env, URL: server.url, KEY: key }, encoding: 'utf8' }));
  if (out.verdict !== 'consider' || out.hash !== 64) throw new Error(`the installed package answered ${JSON.stringify(out)}`);
  step(`${tarball} installed from its tarball and answered from plain Node`);
} finally {
  for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch((err: unknown) => console.error(`cleanup: ${(err as Error).message}`));
}
process.exit(0);
