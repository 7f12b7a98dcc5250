import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';

let defaults: Config | undefined;

/**
 * The configuration's defaults (config.ts) with what the suite changes: no request rate per plan
 * and no admission limit (the tests of those set them); no graph warm-up before readiness (the
 * readiness test turns it on); receipts' keys in a file of the test file's temporary folder.
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const signingKeysFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-keys-')), 'signing-keys.json');
  return { ...(defaults ??= loadConfig({})), signingKeysFile, RATE_LIMITS: 'off', MAX_CONCURRENT_REQUESTS: 10_000, MAX_WAITING_REQUESTS: 0, GRAPH_WARM_UP_READS: 0, ...overrides };
}
