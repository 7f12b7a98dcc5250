import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { GraphEngine } from './graph/graph-port.js';
import type { ImportRepo } from './ingest/import-repo.js';
import { importFolder } from './ingest/load.js';
import { DEMO_BROKER, DEMO_FIRST_NAME, DEMO_FL_LICENCE, DEMO_JOB_ID, DEMO_KEY_ID, DEMO_LAST_NAME, DEMO_LICENCE, DEMO_MISSING_LICENCE, DEMO_REVIEW_ID, DEMO_VERIFICATION_ID, DEMO_WEBHOOK_ID, DEMO_WEBHOOK_URL } from './http/examples.js';
import type { Account } from './modules/accounts/account.js';
import type { JobsService } from './modules/jobs/jobs.service.js';
import type { LicenseesService } from './modules/licensees/licensees.service.js';
import { createVerificationsRepo } from './modules/verifications/verifications.repo.js';
import { callOf, type VerificationsService } from './modules/verifications/verifications.service.js';
import type { AccountsService } from './modules/accounts/accounts.service.js';
import { createWebhooksRepo } from './modules/webhooks/webhooks.repo.js';
import { MAX_ENDPOINTS, newSecret, type WebhooksService } from './modules/webhooks/webhooks.service.js';
import type { SqlStore } from './store/sql-store.js';

// The steps a start takes before and after it listens, by deployment: the demo dataset and the
// demo account only on the embedded defaults, never beside Neo4j or PostgreSQL.

/** The demo dataset, in the canonical import format. */
export const DEMO_SEEDS = fileURLToPath(new URL('../seeds/demo/', import.meta.url));

/** The demo dataset into an empty embedded graph (unless DEMO_DATA=false). */
export async function prepareGraph(graph: GraphEngine, imports: ImportRepo, demoData: boolean, logger: Logger) {
  if (demoData && graph.embedded && (await imports.jurisdictionCodes()).size === 0) {
    logger.info('the graph is empty: loading the demo dataset');
    const summary = await importFolder(imports, DEMO_SEEDS);
    logger.info(
      { credentials: summary.credentials, relationships: summary.relationships, rejected: summary.rejected.length },
      `loaded the demo dataset from ${path.relative(process.cwd(), DEMO_SEEDS) || DEMO_SEEDS} (start with DEMO_DATA=false for an empty graph)`,
    );
  }
}

/**
 * A demo account on the embedded defaults (both stores in this process), created once the server
 * listens so that the start that created it prints its key, straight to the terminal, once: the
 * raw key is never stored and never logged. Its key and its webhook endpoint have fixed ids, the
 * ones the API's examples name (src/http/examples.ts); the endpoint is disabled, so it is sent nothing.
 */
export async function demoAccount(
  services: { accounts: AccountsService; licensees: LicenseesService; jobs: JobsService; verifications: VerificationsService },
  store: SqlStore,
  base: string,
  write = (text: string) => process.stdout.write(text),
) {
  const { accounts } = services;
  if ((await accounts.countAccounts()) > 0) {
    // Later starts cannot show a key again (none is stored): they say where one comes from.
    write(
      `\n  API keys are shown once, when made. For a new one: sign in at ${base}/dashboard, or run\n` +
        `    npm run -s admin -- keys create demo@example.com --label mine\n  (any account's e-mail; \`npm run -s admin -- accounts list\` lists them)\n\n`,
    );
    return undefined;
  }
  const demo = await accounts.createAccount({ email: 'demo@example.com', plan: 'growth', label: 'demo', isDemo: true, keyId: DEMO_KEY_ID });
  // Straight to the store: the service would check the URL's addresses, which needs DNS at start.
  const webhooks = createWebhooksRepo(store);
  const now = new Date();
  const endpoint = { id: DEMO_WEBHOOK_ID, account_id: demo.account.id, url: DEMO_WEBHOOK_URL, description: 'Demo endpoint: disabled until you point it at your receiver', event_types: null, secret: newSecret() };
  await webhooks.createEndpoint(endpoint, now, MAX_ENDPOINTS);
  await webhooks.updateEndpoint(demo.account.id, DEMO_WEBHOOK_ID, { status: 'disabled', disabled_reason: 'demo endpoint: enable it once its URL is yours' }, now);
  await demoRecords(services, store, { account: demo.account, keyId: DEMO_KEY_ID }, now);
  write(
    `\n  Demo account ${demo.account.email} (growth plan). Its API key, shown only this once:\n\n    ${demo.key.key}\n\n` +
      `  Try: curl -H 'Authorization: Bearer ${demo.key.key}' '${base}/api/v1/licensees/verify?state=TX&license_number=406526-SA'\n\n`,
  );
  return demo.key.key;
}

/**
 * A production start (Neo4j or PostgreSQL: no demo account) with no account yet says so, and how
 * to make the first one: every /api/v1 call needs a key.
 */
export async function noAccountYet(accounts: Pick<AccountsService, 'countAccounts'>, logger: Pick<Logger, 'warn'>) {
  if ((await accounts.countAccounts()) > 0) return;
  logger.warn(
    'no account yet, so no API key: make the first with `npm run -s admin -- accounts create --email you@example.com --plan growth` ' +
      '(`lvs-admin accounts create ...` in the container), then `keys create you@example.com` for more keys',
  );
}

/**
 * What the API's examples name besides the account (src/http/examples.ts): a verification record
 * of the demo licence under a fixed id, made as a verify call records it, with a review, and a roster job of the
 * demo records under a fixed id, which the job runner finishes once the server runs.
 */
async function demoRecords(services: { licensees: LicenseesService; jobs: JobsService; verifications: VerificationsService }, store: SqlStore, caller: { account: Account; keyId: string }, now: Date) {
  const asked = { state: 'TX', license_number: DEMO_LICENCE, first_name: DEMO_FIRST_NAME, last_name: DEMO_LAST_NAME };
  const answer = await services.licensees.verify(asked);
  const served = { status: 200, sha256: createHash('sha256').update(JSON.stringify(answer)).digest('hex') };
  const call = { ...callOf(caller, 'verify', [{ index: null, asked, answer }], served, now), id: DEMO_VERIFICATION_ID };
  await createVerificationsRepo(store).insertJson(JSON.stringify([call]));
  await services.verifications.review(caller.account.id, DEMO_VERIFICATION_ID, { decision: 'accepted', reason: 'Demo review: the holder confirmed by phone' }, { type: 'api_key', key_id: caller.keyId, name: 'Demo Reviewer' }, DEMO_REVIEW_ID);
  const roster = [asked, { state: 'TX', license_number: DEMO_BROKER }, { state: 'FL', license_number: DEMO_FL_LICENCE }, { state: 'TX', license_number: DEMO_MISSING_LICENCE }];
  await services.jobs.create(caller, roster, { watch: false, label: 'Demo roster', format: 'json', request: JSON.stringify(roster), id: DEMO_JOB_ID });
}

/**
 * Before deliveries start: with WEBHOOK_ALLOW_PRIVATE_URLS=true, a warning; without it, endpoints
 * made under it (http, or a private or loopback address) are disabled, and what they had pending fails.
 */
export async function prepareWebhooks(webhooks: WebhooksService, allowPrivate: boolean, logger: Pick<Logger, 'warn'>) {
  if (allowPrivate) {
    logger.warn('WEBHOOK_ALLOW_PRIVATE_URLS=true: webhooks may go to http:// URLs and to private and loopback addresses; for tests and development only');
    return;
  }
  for (const e of await webhooks.disableRefusedEndpoints()) {
    logger.warn({ endpoint: e.id, account: e.account_id }, `webhook endpoint disabled, its pending deliveries failed: ${e.reason}`);
  }
}
