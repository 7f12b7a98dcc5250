import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, inject } from 'vitest';
import { isAlive } from '../../src/store/pglite-store.js';
import { NEO4J_INSTANCE_ENV } from './neo4j-global-setup.js';

// Setup file of the `neo4j` project: every file wipes the database it starts from, so it claims one
// of the run's Neo4j instances for itself before it is imported, and gives it back at its end. A
// claim is a directory made atomically, holding the claimer's pid: no two live processes hold one,
// whatever worker ids the pool hands out. A claim whose process died is taken over.

function tryClaim(dir: string): boolean {
  try {
    fs.mkdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    let owner = 0;
    try {
      owner = Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8'));
    } catch {
      // A claim being made has no pid yet.
    }
    if (!owner || isAlive(owner)) return false;
    fs.rmSync(dir, { recursive: true, force: true });
    return false;
  }
  fs.writeFileSync(path.join(dir, 'pid'), String(process.pid));
  return true;
}

/** A launcher start takes 10-30 s on 2 busy cores; one that says neither ready nor failed by then is stuck. */
const START_WAIT_MS = 600_000;

const { instances, claims } = inject('neo4jInstances') ?? { instances: [], claims: '' };
if (instances.length) {
  let index: number;
  while ((index = instances.findIndex((_, i) => tryClaim(path.join(claims, String(i))))) < 0) await sleep(100);
  process.env[NEO4J_INSTANCE_ENV] = String(index);
  const held = path.join(claims, String(index));
  afterAll(() => fs.rmSync(held, { recursive: true, force: true }));
  // The global setup started the instances without waiting for them (neo4j-global-setup.ts).
  const failed = path.join(claims, `failed-${index}`);
  for (const until = Date.now() + START_WAIT_MS; !fs.existsSync(path.join(claims, `ready-${index}`)); ) {
    if (fs.existsSync(failed)) throw new Error(`the suite's Neo4j ${index} did not start: ${fs.readFileSync(failed, 'utf8')}`);
    if (Date.now() > until) throw new Error(`the suite's Neo4j ${index} did not say it was ready within ${START_WAIT_MS / 1000} s`);
    await sleep(100);
  }
}
