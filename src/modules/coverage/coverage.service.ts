import type { RunningRefresh } from '../../domain/refreshes.js';
import { SOURCES } from '../../domain/sources.js';
import type { JurisdictionRecord } from '../../domain/jurisdictions.js';
import type { GraphReads } from '../../graph/reads-port.js';
import { refreshDays, sourceFreshness } from '../../domain/verdict.js';

const coverageRow = (j: JurisdictionRecord) => ({
  state: j.state,
  status: j.status ?? 'active',
  refresh_frequency: j.refresh_frequency,
  record_count: j.record_count ?? 0,
  active_record_count: j.active_record_count ?? 0,
  last_updated: j.last_updated,
  relationship_coverage: j.relationship_coverage as never,
  relationship_coverage_notes: j.relationship_coverage_notes,
});

/** A running refresh as a source lists it: where it is and how fast it goes. */
const inProgress = (r: RunningRefresh, now: Date) => {
  const seconds = Math.max((now.getTime() - Date.parse(r.started_at)) / 1000, 0.001);
  return {
    run_id: r.run_id,
    started_at: r.started_at,
    last_heard_at: r.heartbeat_at,
    phase: r.progress.phase,
    rows_read: r.progress.rows_read,
    rows_per_second: Math.round(r.progress.rows_read / seconds),
    percent_read: r.progress.total_bytes ? Math.min(100, Math.round((100 * r.progress.bytes_read) / r.progress.total_bytes)) : 0,
  };
};

const sourceItem = (j: JurisdictionRecord, running?: ReturnType<typeof inProgress>) => ({
  id: j.source_id,
  state: j.state,
  name: j.source_name,
  url: j.source_url,
  format: j.source_format,
  refresh_frequency: j.refresh_frequency,
  relationship_coverage: j.relationship_coverage as never,
  relationship_coverage_notes: j.relationship_coverage_notes,
  last_import_at: j.source_last_import_at,
  last_import_rows: j.source_last_import_rows,
  last_snapshot_date: j.source_last_snapshot_date,
  last_run: j.source_last_run ? (JSON.parse(j.source_last_run) as Record<string, unknown>) : null,
  refresh_in_progress: running ?? null,
});

/** @param running the refreshes running now (the side store's leases); absent: none shown. */
export function createCoverageService(repo: Pick<GraphReads, 'jurisdictions'>, now: () => Date, running: () => Promise<RunningRefresh[]> = async () => []) {
  return {
    /** Every jurisdiction code on file. */
    codes: async () => (await repo.jurisdictions()).map((j) => j.state),
    async coverage() {
      return { states: (await repo.jurisdictions()).map(coverageRow) };
    },
    async states() {
      return (await repo.jurisdictions())
        .filter((j) => (j.status ?? 'active') === 'active')
        .map((j) => ({
          code: j.state,
          name: j.name,
          status: j.status ?? 'active',
          relationship_coverage: j.relationship_coverage as never,
          record_count: j.record_count ?? 0,
        }));
    },
    async sources() {
      const [all, runs] = await Promise.all([repo.jurisdictions(), running()]);
      const at = now();
      const progressOf = (state: string) => {
        const run = runs.find((r) => r.state === state);
        return run && inProgress(run, at);
      };
      const items = all.filter((j) => j.source_id).map((j) => sourceItem(j, progressOf(j.state)));
      // A state's first refresh: its source lands with it, so it is listed from the source's configuration.
      for (const r of runs) {
        if (items.some((i) => i.state === r.state)) continue;
        const s = SOURCES[r.source];
        const nothing = { name: null, status: null, record_count: null, active_record_count: null, last_updated: null, source_format: null, source_last_import_at: null, source_last_import_rows: null, source_last_snapshot_date: null, source_last_run: null };
        items.push(sourceItem({ ...nothing, state: r.state, source_id: r.source, source_name: s.name, source_url: s.url, refresh_frequency: s.refresh_frequency, relationship_coverage: s.relationship_coverage, relationship_coverage_notes: s.relationship_coverage_notes ?? null }, progressOf(r.state)));
      }
      return items;
    },
    /**
     * Each state's freshness by the verdicts' rule (domain/verdict.ts), with its last successful
     * run's rows and rejects, at `at`: what the metrics expose and the stale-source alert reads.
     */
    async freshness(at: Date = now()) {
      return (await repo.jurisdictions()).map((j) => {
        const lastRun = j.source_last_run ? (JSON.parse(j.source_last_run) as { rejected?: number }) : null;
        const days = refreshDays(j.refresh_frequency);
        return {
          state: j.state,
          ...sourceFreshness(j.source_last_import_at ?? j.last_updated, j.refresh_frequency, at),
          interval_seconds: days === null ? null : days * 86_400,
          rows: j.source_last_import_rows,
          rejected: lastRun?.rejected ?? null,
        };
      });
    },
    async sourcesCoverage() {
      const all = await repo.jurisdictions();
      const byCoverage: Record<string, number> = {};
      for (const j of all) byCoverage[j.relationship_coverage] = (byCoverage[j.relationship_coverage] ?? 0) + 1;
      return {
        generated_at: now().toISOString(),
        totals: {
          jurisdictions: all.length,
          record_count: all.reduce((n, j) => n + (j.record_count ?? 0), 0),
          active_record_count: all.reduce((n, j) => n + (j.active_record_count ?? 0), 0),
          by_relationship_coverage: byCoverage,
        },
        states: all.map((j) => ({ ...coverageRow(j), source: j.source_id ? sourceItem(j) : null })),
      };
    },
  };
}
export type CoverageService = ReturnType<typeof createCoverageService>;
