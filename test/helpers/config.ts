import { loadConfig, type Config } from '../../src/config.js';

let defaults: Config | undefined;

/**
 * The suite's NEO4J_VERSION_DRAIN_MS in the processes it starts: the setting's floor, for a
 * process that sees another's publish a second late and serves requests as long as the tests'.
 */
export const PROCESS_DRAIN_MS = 1500;
/**
 * In the suite's own graphs, where one process writes and reads and each Neo4j refresh waits out
 * the last one's drain: shorter than the floor, except where requests run beside a publish.
 */
export const SUITE_DRAIN_MS = 500;

/**
 * The configuration's defaults (config.ts) with what the suite changes: no request rate per plan
 * and no admission limit (the tests of those set them); a refresh's replaced versions collected
 * after 0.5 s, not 5 (one process: its requests are short and see its publishes at once); no graph
 * warm-up before readiness (the readiness test turns it on).
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...(defaults ??= loadConfig({})), RATE_LIMITS: 'off', MAX_CONCURRENT_REQUESTS: 10_000, MAX_WAITING_REQUESTS: 0, NEO4J_VERSION_DRAIN_MS: SUITE_DRAIN_MS, GRAPH_WARM_UP_READS: 0, ...overrides };
}
