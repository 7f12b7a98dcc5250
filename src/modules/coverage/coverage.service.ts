import type { CoverageRepo, JurisdictionRecord } from './coverage.repo.js';

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

const sourceItem = (j: JurisdictionRecord) => ({
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
});

export function createCoverageService(repo: CoverageRepo, now: () => Date) {
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
      return (await repo.jurisdictions()).filter((j) => j.source_id).map(sourceItem);
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
