import { performance } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { GateHolds } from '../graph/graph-port.js';

// Metric names follow Prometheus' conventions: the service's own start `lvs_`, counters end in
// `_total`, durations are `_seconds`; labels are bounded (route templates and query file names,
// never paths, keys or accounts). docs/operations.md lists them with the alerts that read them.

interface Pool {
  max: number;
  inUse: number;
  idle: number;
  waiting: number;
}

/** What the scrape reads as it happens, from the parts the composition root opened. */
export interface Watched {
  graph: { engine: string; connections?: () => Pool; gateHolds?: () => GateHolds };
  sideStore: { kind: string; connections?: () => Pool };
  meter: () => { flushedAt: number | undefined; unitsWaiting: number };
  webhookBacklog: () => Promise<{ pending: number; oldestDueAt: Date | null }>;
  /** Each state's freshness (coverage.service.ts freshness()). */
  sources: (at: Date) => Promise<{ state: string; refreshed_at: string | null; interval_seconds: number | null; stale: boolean; rows: number | null; rejected: number | null }[]>;
  readiness: () => Promise<{ checks: Record<string, { status: string }> }>;
  /** The search index as it stands (search-port.ts status()). */
  searchIndex: () => { status: 'ready' | 'building'; catching_up: boolean; rows: number; bytes: number; generation?: number; last_build?: { ms: number } };
  now: () => Date;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The process's metrics in a registry of its own, with Node's defaults (event loop lag, heap, RSS). */
export function prometheusMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Gauges prom-client names with `_total`, which Prometheus keeps for counters (promtool check
  // metrics refuses them); the handles and requests they count are not what an operator pages on.
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) registry.removeSingleMetric(name);
  const registers = [registry];

  const requests = new Counter({ name: 'lvs_http_requests_total', help: 'HTTP requests answered, by route template, method and status', labelNames: ['route', 'method', 'status'], registers });
  const latency = new Histogram({ name: 'lvs_http_request_duration_seconds', help: 'Time from a request\'s arrival to its answer', labelNames: ['route', 'method'], buckets: LATENCY_BUCKETS, registers });
  let inFlight = 0;
  new Gauge({ name: 'lvs_http_requests_in_flight', help: 'Requests being served now (shed ones excluded)', registers, collect() { this.set(inFlight); } });
  const shed = new Counter({ name: 'lvs_http_requests_shed_total', help: 'API requests shed under overload (503 before anything is done): the queue was full or standing, or the wait ran out', labelNames: ['reason'], registers });
  const rateLimited = new Counter({ name: 'lvs_rate_limited_requests_total', help: 'API calls refused by their plan\'s request rate (429, not metered)', labelNames: ['plan'], registers });
  const reads = new Counter({ name: 'lvs_graph_queries_total', help: 'Graph reads run, by query file and engine', labelNames: ['query', 'engine'], registers });
  const readErrors = new Counter({ name: 'lvs_graph_query_errors_total', help: 'Graph reads that failed, by query file and engine', labelNames: ['query', 'engine'], registers });
  const readLatency = new Histogram({ name: 'lvs_graph_query_duration_seconds', help: 'Time a graph read took, by query file and engine', labelNames: ['query', 'engine'], buckets: [0.001, ...LATENCY_BUCKETS], registers });
  const attempts = new Counter({ name: 'lvs_webhook_delivery_attempts_total', help: 'Webhook delivery attempts, by outcome (succeeded, retrying: failed with a retry scheduled, failed: no retry left)', labelNames: ['outcome'], registers });

  return {
    async exposition() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
    requests: {
      begin() {
        inFlight += 1;
      },
      end(route: string, method: string, status: number, seconds: number) {
        inFlight -= 1;
        requests.inc({ route, method, status });
        latency.observe({ route, method }, seconds);
      },
    },
    shed: (reason: 'queue' | 'waited') => shed.inc({ reason }),
    rateLimited: (plan: string) => rateLimited.inc({ plan }),
    webhookAttempt: (outcome: 'succeeded' | 'retrying' | 'failed') => attempts.inc({ outcome }),
    /** An observer of one engine's reads, labelled by the query file `nameOf` finds for a query's text. */
    graphReads: (engine: string, nameOf: (query: string) => string) => (query: string) => {
      const started = performance.now();
      return (failed: boolean) => {
        const labels = { query: nameOf(query), engine };
        reads.inc(labels);
        if (failed) readErrors.inc(labels);
        readLatency.observe(labels, (performance.now() - started) / 1000);
      };
    },
    /** Gauges read at each scrape from the parts the process opened. */
    watch(w: Watched) {
      const pool = (name: string, help: string, label: string, value: string, connections?: () => Pool) =>
        connections &&
        new Gauge({
          name,
          help,
          labelNames: [label, 'state'],
          registers,
          collect() {
            const p = connections();
            for (const state of ['inUse', 'idle', 'waiting', 'max'] as const) this.set({ [label]: value, state: state === 'inUse' ? 'in_use' : state }, p[state]);
          },
        });
      pool('lvs_graph_connections', 'The graph engine\'s connections: in use, idle, callers waiting for one, and the most there may be', 'engine', w.graph.engine, w.graph.connections);
      const holds = w.graph.gateHolds;
      if (holds) {
        // Read from the engine at each scrape; the counters advance by what it added since the last.
        const seen = new Map<string, number>();
        const advance = (counter: Counter, key: string, labels: Record<string, string>, now: number) => {
          counter.inc(labels, now - (seen.get(key) ?? 0));
          seen.set(key, now);
        };
        const labelsOf = (work: string) => ({ engine: w.graph.engine, work });
        new Counter({ name: 'lvs_graph_gate_holds_total', help: 'Times the graph engine held every read of its database (a checkpoint, the swap of a refreshed file, the close), by that work', labelNames: ['engine', 'work'], registers, collect() {
          for (const [work, h] of Object.entries(holds())) advance(this, `n ${work}`, labelsOf(work), h.holds);
        } });
        new Counter({ name: 'lvs_graph_gate_held_seconds_total', help: 'Seconds the graph engine held reads at its gate, by the work that held them (from the gate closing to its opening)', labelNames: ['engine', 'work'], registers, collect() {
          for (const [work, h] of Object.entries(holds())) advance(this, `s ${work}`, labelsOf(work), h.held_seconds);
        } });
        new Gauge({ name: 'lvs_graph_gate_longest_hold_seconds', help: 'The longest the graph engine has held reads at its gate since the process started, by the work that held them: the longest a read waited there', labelNames: ['engine', 'work'], registers, collect() {
          for (const [work, h] of Object.entries(holds())) this.set(labelsOf(work), h.longest_seconds);
        } });
      }
      pool('lvs_side_store_connections', 'The side store\'s connections: in use, idle, queries waiting for one, and the most there may be', 'store', w.sideStore.kind, w.sideStore.connections);
      new Gauge({
        name: 'lvs_metering_flush_age_seconds',
        help: 'Seconds since usage counts were last written to the side store in full (written every second)',
        registers,
        collect() {
          const { flushedAt } = w.meter();
          if (flushedAt !== undefined) this.set((w.now().getTime() - flushedAt) / 1000);
        },
      });
      const index = (name: string, help: string, value: (s: ReturnType<Watched['searchIndex']>) => number | undefined) =>
        new Gauge({ name, help, registers, collect() {
          const v = value(w.searchIndex());
          if (v !== undefined) this.set(v);
        } });
      index('lvs_search_index_ready', '1 once the search index is built (searches are answered)', (s) => (s.status === 'ready' ? 1 : 0));
      index('lvs_search_index_catching_up', '1 while the search index is being brought up to a publish or an import', (s) => (s.catching_up ? 1 : 0));
      index('lvs_search_index_rows', 'Credentials the search index holds', (s) => s.rows);
      index('lvs_search_index_bytes', 'Memory the search index\'s arrays and texts hold', (s) => s.bytes);
      index('lvs_search_index_generation', 'The graph generation the search index shows (Neo4j)', (s) => s.generation);
      index('lvs_search_index_last_build_seconds', 'How long the search index\'s last build took (export and build)', (s) => (s.last_build ? s.last_build.ms / 1000 : undefined));
      new Gauge({ name: 'lvs_metering_units_waiting', help: 'Metered calls counted in memory and not yet in the side store', registers, collect() { this.set(w.meter().unitsWaiting); } });

      // One store query per scrape feeds both backlog gauges.
      const backlog = perScrape(w.webhookBacklog);
      new Gauge({ name: 'lvs_webhook_backlog', help: 'Webhook deliveries waiting to be sent (due or scheduled for a retry), in the side store all processes share', registers, async collect() {
        const b = await backlog();
        if (b) this.set(b.pending);
      } });
      new Gauge({
        name: 'lvs_webhook_oldest_due_seconds',
        help: 'Seconds the delivery waiting longest past its due time has waited (0: none is late)',
        registers,
        async collect() {
          const b = await backlog();
          if (b) this.set(b.oldestDueAt ? Math.max(0, (w.now().getTime() - b.oldestDueAt.getTime()) / 1000) : 0);
        },
      });

      type Source = Awaited<ReturnType<Watched['sources']>>[number];
      const sources = perScrape(() => w.sources(w.now()));
      const bySource = (name: string, help: string, value: (s: Source) => number | null) =>
        new Gauge({
          name,
          help,
          labelNames: ['state'],
          registers,
          async collect() {
            this.reset();
            for (const s of (await sources()) ?? []) {
              const v = value(s);
              if (v !== null) this.set({ state: s.state }, v);
            }
          },
        });
      bySource('lvs_source_last_refresh_timestamp_seconds', 'When the state\'s data was last refreshed or imported successfully (Unix time)', (s) => (s.refreshed_at ? Date.parse(s.refreshed_at) / 1000 : null));
      bySource('lvs_source_refresh_interval_seconds', 'The state\'s stated refresh frequency, in seconds (absent for an irregular source)', (s) => s.interval_seconds);
      bySource('lvs_source_overdue_seconds', 'Seconds past the state\'s stated refresh frequency since its last successful refresh (0: on time)', (s) =>
        s.refreshed_at && s.interval_seconds !== null ? Math.max(0, (w.now().getTime() - Date.parse(s.refreshed_at)) / 1000 - s.interval_seconds) : null);
      bySource('lvs_source_stale', '1 once the state\'s last successful refresh is older than twice its stated frequency: verdicts then carry source_stale', (s) => (s.stale ? 1 : 0));
      bySource('lvs_source_rows', 'Rows the state\'s last successful refresh read', (s) => s.rows);
      bySource('lvs_source_rejected_rows', 'Rows the state\'s last successful refresh rejected', (s) => s.rejected);

      new Gauge({
        name: 'lvs_readiness_check',
        help: '1 while the readiness check of a store passes (as /api/v1/readiness reports it), 0 while it fails',
        labelNames: ['check'],
        registers,
        async collect() {
          for (const [check, r] of Object.entries((await w.readiness()).checks)) this.set({ check }, r.status === 'ok' ? 1 : 0);
        },
      });
    },
  };
}
export type Metrics = ReturnType<typeof prometheusMetrics>;

/**
 * One call of `read` shared by the gauges of a scrape (they are collected at once). A store that
 * does not answer leaves its gauges out rather than fail the scrape: metrics matter most then.
 */
function perScrape<T>(read: () => Promise<T>): () => Promise<T | undefined> {
  let last: { at: number; value: Promise<T | undefined> } | undefined;
  return () => {
    const at = performance.now();
    if (!last || at - last.at > 1000) last = { at, value: read().catch(() => undefined) };
    return last.value;
  };
}
