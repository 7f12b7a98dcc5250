import { loadConfig, type Config } from '../../src/config.js';

let defaults: Config | undefined;

/**
 * The configuration's defaults (config.ts) with what the suite changes: no request rate per plan
 * and no admission limit (the tests of those set them); no graph warm-up before readiness (the
 * readiness test turns it on).
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...(defaults ??= loadConfig({})), RATE_LIMITS: 'off', MAX_CONCURRENT_REQUESTS: 10_000, MAX_WAITING_REQUESTS: 0, GRAPH_WARM_UP_READS: 0, ...overrides };
}
