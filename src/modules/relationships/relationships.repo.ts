import type { GraphEngine, Row } from '../../graph/graph-port.js';
import { filteredQuery, type QueryFiles } from '../../graph/query-files.js';
import { isoToday } from '../licensees/licensees.repo.js';

export interface AffiliationRecord {
  supervisor_id: string;
  supervisor_license_number: string;
  supervisor_full_name: string | null;
  supervisor_business_name: string | null;
  affiliate_role: string;
  relationship_type: string;
  effective_from: string;
  effective_to: string | null;
}

export interface AffiliateRecord {
  id: string;
  license_number: string;
  full_name: string | null;
  business_name: string | null;
  license_type: string | null;
  affiliate_role: string;
  relationship_type: string;
  effective_from: string;
}

export interface EdgeFilters {
  affiliate_role?: string;
  relationship_type?: string;
}

export interface AffiliationFilters extends EdgeFilters {
  as_of?: string;
  include_inactive: boolean;
}

function edgeFilters(f: EdgeFilters, active: { key: string }[], params: Row) {
  if (f.affiliate_role) {
    active.push({ key: 'affiliate_role' });
    params.affiliate_role = f.affiliate_role;
  }
  if (f.relationship_type) {
    active.push({ key: 'relationship_type' });
    params.relationship_type = f.relationship_type;
  }
}

export function createRelationshipsRepo(graph: GraphEngine, files: QueryFiles, today: () => string = isoToday) {
  const affiliations = filteredQuery(files, 'relationships/affiliations');
  const affiliates = filteredQuery(files, 'relationships/affiliates');
  const affiliatesCount = filteredQuery(files, 'relationships/affiliates-count', 'relationships/affiliates.filters');

  return {
    async affiliations(id: string, f: AffiliationFilters): Promise<AffiliationRecord[]> {
      const active: { key: string }[] = [];
      const params: Row = { id };
      // Without as_of: those in force today, or all of them. With as_of: in force that day, or
      // everything that had started by then (in force or already ended).
      if (f.as_of) {
        active.push({ key: f.include_inactive ? 'started_by' : 'in_force_on' });
        params.as_of = f.as_of;
      } else if (!f.include_inactive) {
        active.push({ key: 'in_force_on' });
        params.as_of = today();
      }
      edgeFilters(f, active, params);
      return (await graph.read(affiliations.build(active), params)) as unknown as AffiliationRecord[];
    },
    async affiliates(id: string, f: EdgeFilters, skip: number, limit: number): Promise<{ rows: AffiliateRecord[]; total: number }> {
      const active: { key: string }[] = [];
      const params: Row = { id, today: today() };
      edgeFilters(f, active, params);
      const total = Number((await graph.read(affiliatesCount.build(active), params))[0]?.total ?? 0);
      // See licensees.repo: no ORDER BY ... SKIP past the last row on LadybugDB.
      if (skip >= total) return { rows: [], total };
      const rows = await graph.read(affiliates.build(active), { ...params, skip, limit });
      return { rows: rows as unknown as AffiliateRecord[], total };
    },
  };
}
export type RelationshipsRepo = ReturnType<typeof createRelationshipsRepo>;
