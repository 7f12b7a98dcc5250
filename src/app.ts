import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import cors from 'cors';
import express, { type Router } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import type { Clock } from './domain/clock.js';
import { bearerAuth } from './http/auth.js';
import { errorHandler, notFound } from './http/errors.middleware.js';
import { meterGuard } from './http/metering.js';
import { fairShare, type RateGate } from './http/fair-share.js';
import { arrival, metricsHandler, observeRequests, type Exposition, type RequestObserver } from './http/observe.js';
import { admission, type AdmissionOptions } from './http/admission.js';
import { createMethodTable } from './http/methods.js';
import { JSON_TYPES, type RouteContext } from './http/route.js';
import { accountsRoutes } from './modules/accounts/accounts.routes.js';
import type { AccountsService } from './modules/accounts/accounts.service.js';
import type { Meter } from './modules/accounts/metering.js';
import { openApiDocument } from './http/openapi.js';
import { requestLogger } from './http/request-context.js';
import { inReadScope } from './graph/read-scope.js';
import { coverageRoutes } from './modules/coverage/coverage.routes.js';
import type { CoverageService } from './modules/coverage/coverage.service.js';
import { changesRoutes } from './modules/changes/changes.routes.js';
import type { ChangesService } from './modules/changes/changes.service.js';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { watchlistRoutes } from './modules/watchlist/watchlist.routes.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import type { WebhooksService } from './modules/webhooks/webhooks.service.js';
import type { WatchlistService } from './modules/watchlist/watchlist.service.js';
import type { DashboardService } from './modules/dashboard/dashboard.service.js';
import { healthRoutes } from './modules/health/health.routes.js';
import type { Readiness } from './modules/health/health.service.js';
import type { SearchIndexStatus } from './search/search-port.js';
import { legacyRoutes } from './modules/legacy/legacy.routes.js';
import type { LegacyService } from './modules/legacy/legacy.service.js';
import { licenseesRoutes } from './modules/licensees/licensees.routes.js';
import type { LicenseesService } from './modules/licensees/licensees.service.js';
import { relationshipsRoutes } from './modules/relationships/relationships.routes.js';
import { verificationsRoutes } from './modules/verifications/verifications.routes.js';
import { receiptsRoutes } from './modules/receipts/receipts.routes.js';
import type { Signer } from './modules/receipts/signer.js';
import type { VerificationsService } from './modules/verifications/verifications.service.js';
import { jobsRoutes, JOBS_PATH } from './modules/jobs/jobs.routes.js';
import type { JobsService } from './modules/jobs/jobs.service.js';
import type { LookupTraffic } from './http/traffic.js';
import type { RelationshipsService } from './modules/relationships/relationships.service.js';

export interface AppDeps {
  logger: Logger;
  licensees: LicenseesService;
  legacy: LegacyService;
  relationships: RelationshipsService;
  coverage: CoverageService;
  changes: ChangesService;
  watchlist: WatchlistService;
  webhooks: WebhooksService;
  /** The verification log of verify and batch answers. */
  verifications: VerificationsService;
  /** Signs receipts; its keys are served as a JWKS. */
  signer: Signer;
  /** Roster verification jobs as accounts see them (their runner, jobs.runner.ts, is started by whoever serves). */
  jobs: JobsService;
  /** Lookups as they begin (roster jobs yield to them). */
  traffic: LookupTraffic;
  readiness: Readiness;
  /** What the search index is doing, shown on /health. */
  searchIndex: () => SearchIndexStatus;
  accounts: AccountsService;
  /** Each account's request rate by its plan; absent: none. */
  fairShare?: RateGate;
  meter: Meter;
  clock: Clock;
  jsonBodyLimit: string;
  trustProxy?: boolean;
  /** Origins whose pages may call /api/v1 (`*` for any); absent: no CORS headers. */
  corsOrigins?: '*' | string[];
  /** Self-service accounts under /dashboard (sign-up by e-mail link, keys, usage). */
  dashboard: DashboardService;
  /** The dashboard's cookies carry Secure (PUBLIC_BASE_URL is https). */
  secureCookies: boolean;
  /** Operator endpoints for the local command line (see operator/). */
  adminRouter?: Router;
  /** Where the request rate's guard sits (config RATE_GUARD); default before admission. */
  rateGuard?: 'before-admission' | 'after-admission';
  /** How many /api/v1 requests are served at once and may wait; absent: no limit. */
  admission?: AdmissionOptions;
  /** Request metrics and their exposition; `token`: GET /metrics on this app too, to its bearer. */
  metrics?: { requests: RequestObserver; shed: NonNullable<AdmissionOptions['shed']>; exposition: Exposition; token?: string };
}

/** A roster of 100,000 rows with names is about 10 MB as JSON. */
const ROSTER_BODY_LIMIT = '24mb';

/** /api/v1 paths served without an API key. */
export const PUBLIC_API_PATHS = new Set(['/coverage']);

/** Response headers a page on another origin may read. */
const EXPOSED_HEADERS = [
  'X-Request-ID', 'ETag', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'Deprecation', 'Sunset', 'Link', 'WWW-Authenticate',
  'Verification-Id', 'Location', 'Idempotent-Replayed',
];

/**
 * @param options.accessControl false serves every route without API keys, metering or verification records.
 * @param options.recordVerifications false answers verify and batch without recording them.
 * Only the benchmarks turn either off, to measure what they cost.
 */
export function createApp(deps: AppDeps, options: { accessControl?: boolean; recordVerifications?: boolean } = {}) {
  const accessControl = options.accessControl ?? true;
  const records = accessControl && (options.recordVerifications ?? true) ? deps.verifications : undefined;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy ?? false);
  app.set('query parser', 'simple');
  if (deps.metrics) app.use(arrival);
  if (deps.corsOrigins) {
    // Preflights go on to the method table, which answers them with 204 and Allow, without a key.
    app.use(
      '/api/v1',
      cors({
        origin: deps.corsOrigins,
        methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
        allowedHeaders: ['Authorization', 'Content-Type', 'If-None-Match', 'X-Request-ID', 'Idempotency-Key'],
        exposedHeaders: EXPOSED_HEADERS,
        maxAge: 600,
        preflightContinue: true,
      }),
    );
  }
  // After CORS, so that a page can read its 429; by default before admission and the rest, so that
  // a refusal costs little and a flood of them never takes the turns other accounts' calls wait for.
  const guard = accessControl && deps.fairShare ? fairShare(deps.accounts, deps.fairShare, deps.logger, (p) => PUBLIC_API_PATHS.has(p)) : undefined;
  // A shed request costs next to nothing (no log line, headers, route or body).
  const admit = deps.admission ? admission({ ...deps.admission, shed: deps.metrics?.shed }, deps.logger) : undefined;
  for (const m of deps.rateGuard === 'after-admission' ? [admit, guard] : [guard, admit]) if (m) app.use('/api/v1', m);
  // A request shed or refused by its rate is counted as such (lvs_http_requests_shed_total,
  // lvs_rate_limited_requests_total), not as served.
  if (deps.metrics) app.use(observeRequests(deps.metrics.requests));
  app.use(requestLogger(deps.logger));
  // A request reads one snapshot of the graph, whatever a refresh publishes meanwhile: it stays
  // until the response closes (readers.ts).
  app.use((_req, res, next) => inReadScope(next, (end) => res.once('close', end)));
  app.use(helmet());
  const methods = createMethodTable();
  app.use(methods.guard);
  // strict: false lets `null` or a bare string reach validation, which names the expected shape.
  const json = express.json({ limit: deps.jsonBodyLimit, strict: false, type: JSON_TYPES });
  // A roster upload is read with its own limit, once its caller is known.
  app.use((req, res, next) => (req.path === JOBS_PATH ? next() : json(req, res, next)));
  const authenticate = bearerAuth(deps.accounts, (caller) => deps.meter.keyUsed(caller.keyId));
  if (accessControl) app.use('/api/v1', (req, res, next) => (PUBLIC_API_PATHS.has(req.path) ? next() : authenticate(req, res, next)));
  // A roster upload: a plan without jobs is refused before a byte of the roster is read.
  app.use(
    JOBS_PATH,
    (req, res, next) => {
      if (req.method === 'POST' && req.path === '/' && res.locals.caller) deps.jobs.checkPlan(res.locals.caller.account);
      next();
    },
    express.json({ limit: ROSTER_BODY_LIMIT, strict: false, type: JSON_TYPES }),
    express.raw({ limit: ROSTER_BODY_LIMIT, type: 'text/csv' }),
  );

  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'An account API key (`lvs_live_...`): `Authorization: Bearer <key>`',
  });
  const router = express.Router();
  const ctx: RouteContext = {
    router,
    registry,
    methods,
    meter: accessControl ? meterGuard(deps.meter, (err) => deps.logger.error({ err }, 'metering failed')) : undefined,
    traffic: deps.traffic,
  };
  healthRoutes(ctx, deps.readiness, deps.searchIndex);
  coverageRoutes(ctx, deps.coverage);
  receiptsRoutes(ctx, deps.signer);
  if (accessControl) {
    accountsRoutes(ctx, deps.accounts, deps.meter, deps.clock.now);
    watchlistRoutes(ctx, deps.watchlist);
    webhooksRoutes(ctx, deps.webhooks);
    verificationsRoutes(ctx, deps.verifications);
    jobsRoutes(ctx, deps.jobs);
  }
  // Before the {state}/{number} paths: /licensees/changes and /licensees/search are not licences.
  changesRoutes(ctx, deps.changes);
  legacyRoutes(ctx, {
    licensees: deps.licensees,
    relationships: deps.relationships,
    legacy: deps.legacy,
    jurisdictionCodes: deps.coverage.codes,
  });
  licenseesRoutes(
    ctx,
    deps.licensees,
    records && ((caller, operation, items, served) => records.record(caller, operation, items, served)),
  );
  relationshipsRoutes(ctx, deps.relationships);
  app.use(router);

  if (deps.metrics?.token) app.get('/metrics', metricsHandler(deps.metrics.exposition, deps.metrics.token));
  else {
    // A scraper pointed at the API port is told how to turn metrics on, not left with a bare 404.
    app.get('/metrics', (_req, res) => {
      res.status(404).json({ detail: 'metrics are not served on this port: set METRICS_TOKEN to serve GET /metrics here to a bearer of that token, or METRICS_PORT for a port of their own (docs/operations.md)' });
    });
  }
  methods.add('/metrics', 'get');

  const document = openApiDocument(registry);
  app.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  methods.add('/openapi.json', 'get');
  // Helmet's default CSP asks browsers to upgrade every asset to https, which breaks the page
  // wherever it is served over plain HTTP from a host other than localhost.
  const docsCsp = helmet.contentSecurityPolicy({ directives: { upgradeInsecureRequests: null } });
  // swagger-ui-express loads with the first visit to the page, not with every start.
  const docs = express.Router();
  let docsLoaded: Promise<void> | undefined;
  app.use('/docs', docsCsp, (req, res, next) => {
    docsLoaded ??= import('swagger-ui-express').then(({ default: swaggerUi }) => {
      docs.use(swaggerUi.serve, swaggerUi.setup(document, { customSiteTitle: 'Licensee Verification Service API' }));
    });
    docsLoaded.then(() => docs(req, res, next), next);
  });
  // The page and its assets are read-only: other methods get 405 rather than the page.
  methods.add('/docs{/*asset}', 'get');

  // The root names where to go, for a person or a client that starts there.
  app.get('/', (_req, res) => {
    res.json({
      service: 'Licensee Verification Service',
      docs: '/docs',
      openapi: '/openapi.json',
      ...(accessControl ? { dashboard: '/dashboard' } : {}),
      health: '/health',
      api: '/api/v1',
    });
  });
  methods.add('/', 'get');

  if (accessControl) app.use('/dashboard', dashboardRoutes(deps.dashboard, methods, { secureCookies: deps.secureCookies }, { watchlist: deps.watchlist, webhooks: deps.webhooks, verifications: deps.verifications, jobs: deps.jobs, changes: deps.changes }));
  if (deps.adminRouter) app.use('/internal', deps.adminRouter);

  app.use(notFound);
  app.use(errorHandler);
  return app;
}
