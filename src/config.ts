import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from './errors.js';
import { DEFAULT_RATE_LIMITS, PLAN_NAMES, type PlanName, type RateLimits } from './domain/plans.js';

const boolFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** A whole number from `min` to `max`; one sentence for any way a value misses (not "received NaN"). */
const wholeNumber = (min: number, max: number) => {
  const error = `must be a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

const ConfigSchema = z.object({
  PORT: wholeNumber(0, 65535).default(8000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** auto: readable lines on a terminal, JSON lines otherwise (for log shippers). */
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  /** Load the demo dataset from seeds/ into an empty embedded graph at start. */
  DEMO_DATA: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  /** LadybugDB buffer pool; the engine's own default takes most of the machine's memory. */
  GRAPH_BUFFER_POOL_MB: wholeNumber(64, 65536).default(1024),
  GRAPH_CONNECTIONS: wholeNumber(1, 32).default(4),
  GRAPH_QUERY_TIMEOUT_MS: wholeNumber(100, 600000).default(15000),
  /** Licences read before readiness says ready; unset: 2,000 on Neo4j, none on LadybugDB (decision 0029). */
  GRAPH_WARM_UP_READS: wholeNumber(0, 1_000_000).optional(),
  /** Neo4j, the production graph engine; unset: embedded LadybugDB under DATA_DIR. */
  NEO4J_URI: z.string().regex(/^(neo4j|bolt)(\+s|\+ssc)?:\/\/\S+$/, 'must be a neo4j:// or bolt:// URI').optional(),
  NEO4J_USER: z.string().default('neo4j'),
  NEO4J_PASSWORD: z.string().default(''),
  NEO4J_DATABASE: z.string().default('neo4j'),
  NEO4J_POOL_SIZE: wholeNumber(1, 500).default(50),
  // A request that needs an unreachable Neo4j answers 503 within about retry + connection time
  // (docs/decisions/0004-neo4j-for-real.md): a client waits seconds, not the driver's 30-60 s.
  NEO4J_ACQUISITION_TIMEOUT_MS: wholeNumber(100, 600000).default(2000),
  NEO4J_CONNECTION_TIMEOUT_MS: wholeNumber(100, 600000).default(2000),
  NEO4J_MAX_RETRY_MS: wholeNumber(0, 600000).default(3000),
  /** PostgreSQL for accounts, keys and usage; unset: embedded PGlite under DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_SIZE: wholeNumber(1, 100).default(10),
  JSON_BODY_LIMIT: z.string().default('128kb'),
  MAX_CONCURRENT_REQUESTS: wholeNumber(1, 10_000).default(16),
  MAX_WAITING_REQUESTS: wholeNumber(0, 100_000).default(256),
  REQUEST_WAIT_TIMEOUT_MS: wholeNumber(1, 60_000).default(1000),
  /**
   * How long an idle keep-alive connection stays open. Longer than the idle timeouts of common
   * load balancers and clients (60 s), so the server is never the one closing a socket a client
   * is about to reuse ("other side closed").
   */
  KEEP_ALIVE_TIMEOUT_MS: wholeNumber(1000, 600000).default(65000),
  SHUTDOWN_TIMEOUT_MS: wholeNumber(0, 120000).default(10000),
  TRUST_PROXY: boolFlag,
  /** Where this service is reached from outside: links in e-mails are built from it, never from a request's Host. Default http://localhost:PORT. */
  PUBLIC_BASE_URL: z.string().url().regex(/^https?:\/\//, 'must be an http:// or https:// URL').optional(),
  /** The dashboard's mail server (smtp:// or smtps://, credentials in the URL); needs MAIL_FROM. */
  SMTP_URL: z.string().regex(/^smtps?:\/\/\S+$/, 'must be an smtp:// or smtps:// URL').optional(),
  MAIL_FROM: z.string().min(3).optional(),
  /**
   * false answers verify and batch without verification records (no Verification-Id): for measuring
   * what recording costs (bench:national), never for a deployment whose users rely on the log.
   */
  RECORD_VERIFICATIONS: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  /**
   * The private keys that sign receipts, as a JWKS of Ed25519 private JWKs (a deployment's secret);
   * unset: the file SIGNING_KEYS_FILE, made on first use. Never logged or served.
   */
  SIGNING_KEYS: z.string().optional(),
  /** The key file when SIGNING_KEYS is unset (a rotation adds to it); default DATA_DIR/signing-keys.json. */
  SIGNING_KEYS_FILE: z.string().optional(),
  /** Roster job chunks (batches of 100) one process verifies at once: the graph queries jobs may hold beside interactive traffic. */
  JOB_CONCURRENCY: wholeNumber(1, 32).default(2),
  /** How long a process holds a job chunk; past it, another process (or this one restarted) takes the chunk again. */
  JOB_LEASE_MS: wholeNumber(500, 3_600_000).default(60_000),
  /** Days a finished job and its results are kept. */
  JOB_RETENTION_DAYS: wholeNumber(1, 3650).default(30),
  /** How long change events are kept (the feed answers 410 for an older cursor). */
  CHANGE_RETENTION_DAYS: wholeNumber(1, 3650).default(400),
  /** Seconds before each webhook retry, comma-separated; after the last, a delivery is failed (default about 27 hours in all). */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default('5,300,1800,7200,18000,36000,36000')
    .transform((v, ctx) => {
      const waits = v.split(',').map((s) => Number(s.trim()));
      if (!waits.length || waits.length > 20 || waits.some((w) => !Number.isFinite(w) || w <= 0 || w > 7 * 86400)) {
        ctx.addIssue({ code: 'custom', message: 'must be 1 to 20 comma-separated waits in seconds, each above 0 and at most 604800' });
      }
      return waits.map((w) => Math.round(w * 1000));
    }),
  WEBHOOK_CONNECT_TIMEOUT_MS: wholeNumber(100, 60000).default(5000),
  /** How long a receiver has for its response headers, and again for its body. */
  WEBHOOK_TIMEOUT_MS: wholeNumber(100, 120000).default(15000),
  /** Webhook attempts a process starts a second at most (delivery is background work: callers come first). */
  WEBHOOK_RATE: wholeNumber(1, 10000).default(100),
  /** The same while any state's refresh runs, so the refresh keeps its pace. */
  WEBHOOK_REFRESH_RATE: wholeNumber(1, 10000).default(10),
  /** Allow webhook URLs over http and to loopback or private addresses: for tests and development only. */
  WEBHOOK_ALLOW_PRIVATE_URLS: boolFlag,
  /** A port of its own for GET /metrics (Prometheus), kept off the public API; unset: none. */
  METRICS_PORT: wholeNumber(0, 65535).optional(),
  /** Where the metrics port listens. */
  METRICS_HOST: z.string().default('0.0.0.0'),
  /** Serves GET /metrics on the API port too, to a caller with `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /**
   * Each plan's request rate: `off`, or `plan=rate:burst` pairs separated by commas (requests per
   * second, and at most `burst` at once; plans left out keep their defaults in domain/plans.ts).
   */
  RATE_LIMITS: z
    .string()
    .default('')
    .transform((v, ctx): RateLimits | 'off' => {
      const text = v.trim();
      if (text === 'off') return 'off';
      const limits: RateLimits = { ...DEFAULT_RATE_LIMITS };
      for (const item of text ? text.split(',') : []) {
        const m = /^\s*(\w+)\s*=\s*(\d+)\s*:\s*(\d+)\s*$/.exec(item);
        const plan = m?.[1] as PlanName | undefined;
        const rate = Number(m?.[2]);
        const burst = Number(m?.[3]);
        if (!m || !PLAN_NAMES.includes(plan!)) {
          ctx.addIssue({ code: 'custom', message: `${JSON.stringify(item.trim())} is not plan=rate:burst with a plan of ${PLAN_NAMES.join(', ')} (or set off)` });
        } else if (rate < 1 || burst < rate || burst % rate !== 0) {
          ctx.addIssue({ code: 'custom', message: `${plan}: the rate must be at least 1 a second and the burst a whole multiple of it (the window is burst / rate seconds)` });
        } else limits[plan!] = { perSecond: rate, burst };
      }
      return limits;
    }),
  /**
   * Where the request rate's guard sits: before admission (a refusal takes no turn other accounts
   * wait for; the default, docs/decisions/0025) or after it (nothing is read for a call shed at
   * capacity). For measuring the two (bench:national --only overload,fairshare).
   */
  RATE_GUARD: z.enum(['before-admission', 'after-admission']).default('before-admission'),
  /** Origins whose pages may call /api/v1: `*`, or exact origins separated by commas; unset: no CORS. */
  CORS_ORIGINS: z
    .string()
    .optional()
    .transform((v, ctx): '*' | string[] | undefined => {
      if (!v?.trim()) return undefined;
      if (v.trim() === '*') return '*';
      const origins = v.split(',').map((o) => o.trim()).filter(Boolean);
      for (const origin of origins) {
        if (!isOrigin(origin)) ctx.addIssue({ code: 'custom', message: `${JSON.stringify(origin)} is not an origin (scheme://host[:port], no path), nor *` });
      }
      return origins;
    }),
});

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

export type Config = Readonly<
  z.infer<typeof ConfigSchema> & { graphPath: string; dataDir: string; pglitePath: string; searchIndexPath: string; publicBaseUrl: string; signingKeysFile: string }
>;

/** The only reader of process.env. Throws with every invalid variable named. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = i.path.join('.');
      const sent = env[name];
      return `  ${name}${sent === undefined ? '' : `=${JSON.stringify(sent)}`}: ${i.message}`;
    });
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  if (parsed.data.SMTP_URL && !parsed.data.MAIL_FROM) throw new ConfigError('invalid configuration:\n  MAIL_FROM: required with SMTP_URL (the sender of the dashboard\'s e-mails)');
  const dataDir = path.resolve(parsed.data.DATA_DIR);
  return Object.freeze({
    ...parsed.data,
    dataDir,
    graphPath: path.join(dataDir, 'graph.lbug'),
    pglitePath: path.join(dataDir, 'accounts.pglite'),
    /** The search index, kept at a clean stop for the next start on the same graph (either engine). */
    searchIndexPath: path.join(dataDir, 'search-index.snapshot'),
    signingKeysFile: path.resolve(parsed.data.SIGNING_KEYS_FILE ?? path.join(dataDir, 'signing-keys.json')),
    publicBaseUrl: (parsed.data.PUBLIC_BASE_URL ?? `http://localhost:${parsed.data.PORT}`).replace(/\/+$/, ''),
  });
}
