import type { Logger } from 'pino';
import type { AppDeps } from '../app.js';
import type { Config } from '../config.js';
import type { GraphReads } from '../graph/reads-port.js';
import type { GraphAdapters } from '../graph/adapters-port.js';
import type { SearchIndex } from '../search/search-port.js';
import { lookupTraffic } from '../http/traffic.js';
import { createCoverageService } from '../modules/coverage/coverage.service.js';
import { createDashboardService } from '../modules/dashboard/dashboard.service.js';
import { createReadiness } from '../modules/health/health.service.js';
import { createJobReceipts } from '../modules/jobs/job-receipt.js';
import { createJobRunner, type JobRunner } from '../modules/jobs/jobs.runner.js';
import { createJobsService } from '../modules/jobs/jobs.service.js';
import { createLegacyService } from '../modules/legacy/legacy.service.js';
import { createLicenseesService } from '../modules/licensees/licensees.service.js';
import { createRelationshipsService } from '../modules/relationships/relationships.service.js';
import type { MailSetup } from './mail.js';
import type { SideServices } from './side.js';

export type ServicesConfig = Pick<
  Config,
  | 'JSON_BODY_LIMIT'
  | 'TRUST_PROXY'
  | 'CORS_ORIGINS'
  | 'MAX_CONCURRENT_REQUESTS'
  | 'MAX_WAITING_REQUESTS'
  | 'REQUEST_WAIT_TIMEOUT_MS'
  | 'JOB_CONCURRENCY'
  | 'GRAPH_WARM_UP_READS'
  | 'JOB_LEASE_MS'
  | 'JOB_RETENTION_DAYS'
  | 'RATE_GUARD'
>;

/**
 * The services over the graph and the side store, and what the app needs of the configuration; with
 * the roster jobs' runner, which the root's workers start.
 */
export function appServices(graph: GraphAdapters, side: SideServices, config: ServicesConfig, o: { logger: Logger; index: SearchIndex; mail: MailSetup; reads?: GraphReads }): AppDeps & { jobRunner: JobRunner } {
  // One clock for the process: the side store's, which the meter and accounts read too.
  const { clock, accounts, meter } = side;
  const reads = o.reads ?? graph.reads(clock.today);
  const licensees = createLicenseesService(reads, clock, o.index);
  const { repo: jobsRepo, soleProcess } = side.jobsStore;
  const traffic = lookupTraffic();
  const { index } = o;
  const jobReceipts = createJobReceipts({ repo: jobsRepo, signer: side.signer });
  const jobRunner = createJobRunner(
    {
      repo: jobsRepo, licensees, meter, accounts, verifications: side.verifications, watchlist: side.watchlist, webhooks: side.webhooks, clock, log: o.logger,
      lookupsComing: traffic.busy, receipts: side.signer ? jobReceipts : undefined,
    },
    { concurrency: config.JOB_CONCURRENCY, leaseMs: config.JOB_LEASE_MS, retentionDays: config.JOB_RETENTION_DAYS, soleProcess },
  );
  // Started at once, so that a server nobody asks is warm too; readiness waits for it, and a failed one is run again when asked.
  const warmUpReads = config.GRAPH_WARM_UP_READS ?? (graph.engine.embedded ? 0 : 2000);
  let warming: Promise<void> | undefined;
  const warmUp = () =>
    (warming ??= licensees.warmUp(warmUpReads).catch((err) => {
      warming = undefined;
      throw err;
    }));
  warmUp().catch((err) => o.logger.warn({ err }, 'the graph warm-up failed: readiness runs it again'));
  return {
    logger: o.logger,
    licensees,
    legacy: createLegacyService(reads, licensees),
    relationships: createRelationshipsService(reads, licensees, clock.today),
    coverage: createCoverageService(reads, clock.now, () => side.refreshLeases.running()),
    searchIndex: () => index.status(),
    readiness: createReadiness([
      { name: 'graph', check: () => graph.engine.ping() },
      { name: 'search_index', check: async () => void (index.ready() || (await index.current())) },
      { name: 'warm_up', check: warmUp },
      { name: 'accounts_store', check: () => accounts.ping() },
    ]),
    accounts,
    fairShare: side.fairShare?.take,
    meter,
    changes: side.changes,
    watchlist: side.watchlist,
    webhooks: side.webhooks,
    verifications: side.verifications,
    signer: side.signer,
    jobs: createJobsService({ repo: jobsRepo, clock, queued: jobRunner.wake, receipts: jobReceipts }, { retentionDays: config.JOB_RETENTION_DAYS }),
    jobRunner,
    traffic,
    clock,
    dashboard: createDashboardService({ repo: side.dashboardRepo, accounts, meter, mailer: o.mail.mailer, clock, publicBaseUrl: o.mail.publicBaseUrl }),
    secureCookies: o.mail.publicBaseUrl.startsWith('https:'),
    jsonBodyLimit: config.JSON_BODY_LIMIT,
    trustProxy: config.TRUST_PROXY,
    corsOrigins: config.CORS_ORIGINS,
    rateGuard: config.RATE_GUARD,
    admission: { concurrency: config.MAX_CONCURRENT_REQUESTS, queue: config.MAX_WAITING_REQUESTS, waitMs: config.REQUEST_WAIT_TIMEOUT_MS },
  };
}
