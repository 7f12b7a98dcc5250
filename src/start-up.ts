import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { GraphEngine } from './graph/graph-port.js';
import { importFolder } from './ingest/canonical-import.js';
import type { ImportRepo } from './ingest/import-repo.js';
import type { AccountsService } from './modules/accounts/accounts.service.js';

// The steps a start takes before and after it listens, by deployment: the demo dataset and the
// demo account only on the embedded defaults, never beside Neo4j or PostgreSQL.

/** The demo dataset, in the canonical import format. */
export const DEMO_SEEDS = fileURLToPath(new URL('../seeds/demo/', import.meta.url));

/** The demo dataset into an empty embedded graph (unless DEMO_DATA=false), and the read models a graph written before lacks. */
export async function prepareGraph(graph: GraphEngine, imports: ImportRepo, demoData: boolean, logger: Logger) {
  if (demoData && graph.embedded && (await imports.jurisdictionCodes()).size === 0) {
    const summary = await importFolder(imports, DEMO_SEEDS);
    logger.info(
      { credentials: summary.credentials, relationships: summary.relationships, rejected: summary.rejected.length },
      `loaded the demo dataset from ${path.relative(process.cwd(), DEMO_SEEDS) || DEMO_SEEDS} (start with DEMO_DATA=false for an empty graph)`,
    );
  }
  if (await imports.readModelsMissing()) {
    const started = Date.now();
    await imports.refreshReadModels(await imports.jurisdictionCodes());
    logger.info({ elapsed_ms: Date.now() - started }, 'computed the supervision read models of a graph written before they existed');
  }
}

/**
 * A demo account on the embedded defaults (both stores in this process), created once the server
 * listens so that the start that created it prints its key, straight to the terminal, once: the
 * raw key is never stored and never logged.
 */
export async function demoAccount(accounts: AccountsService, base: string) {
  if ((await accounts.countAccounts()) > 0) return;
  const demo = await accounts.createAccount({ email: 'demo@example.com', plan: 'growth', label: 'demo', isDemo: true });
  process.stdout.write(
    `\n  Demo account ${demo.account.email} (growth plan). Its API key, shown only this once:\n\n    ${demo.key.key}\n\n` +
      `  Try: curl -H 'Authorization: Bearer ${demo.key.key}' '${base}/api/v1/licensees/verify?state=TX&license_number=406526-SA'\n\n`,
  );
}
