import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';

let defaults: Config | undefined;
/** The keys' folders this process made: a file's go with its temporary folder, the global setup's at exit. */
const keyDirs: string[] = [];
process.once('exit', () => keyDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/**
 * The configuration's defaults (config.ts) with what the suite changes: no request rate per plan
 * and no admission limit (the tests of those set them); no graph warm-up before readiness (the
 * readiness test turns it on); receipts' keys in a file of the test file's temporary folder.
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-keys-'));
  keyDirs.push(dir);
  const signingKeysFile = path.join(dir, 'signing-keys.json');
  return { ...(defaults ??= loadConfig({})), signingKeysFile, RATE_LIMITS: 'off', MAX_CONCURRENT_REQUESTS: 10_000, MAX_WAITING_REQUESTS: 0, GRAPH_WARM_UP_READS: 0, ...overrides };
}
