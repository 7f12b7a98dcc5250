import type { GraphEngine } from '../../graph/graph-port.js';
import type { QueryFiles } from '../../graph/query-files.js';

export interface JurisdictionRecord {
  state: string;
  name: string | null;
  status: string | null;
  refresh_frequency: string | null;
  record_count: number | null;
  active_record_count: number | null;
  last_updated: string | null;
  relationship_coverage: string;
  relationship_coverage_notes: string | null;
  source_id: string | null;
  source_name: string | null;
  source_url: string | null;
  source_format: string | null;
  source_last_import_at: string | null;
  source_last_import_rows: number | null;
  source_last_snapshot_date: string | null;
  source_last_run: string | null;
}

export function createCoverageRepo(graph: GraphEngine, files: QueryFiles) {
  const jurisdictions = files.get('coverage/jurisdictions');
  return {
    async jurisdictions(): Promise<JurisdictionRecord[]> {
      return (await graph.read(jurisdictions)) as unknown as JurisdictionRecord[];
    },
  };
}
export type CoverageRepo = ReturnType<typeof createCoverageRepo>;
