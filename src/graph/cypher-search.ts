import type { SearchFilters } from '../domain/search-filters.js';
import type { GraphEngine } from './graph-port.js';
import { filteredQuery, type QueryFiles } from './query-files.js';
import { composeSearch } from './search-query.js';

/** The query files of a cypherSearch: by default the Cypher both engines run (licensees/search*.cypher). */
export interface CypherSearchFiles {
  search: string;
  count: string;
  typeCounts: string;
  filters: string;
}

const SHARED: CypherSearchFiles = { search: 'licensees/search', count: 'licensees/search-count', typeCounts: 'licensees/type-counts', filters: 'licensees/search.filters' };

/** Search pages and type counts in Cypher. */
export function cypherSearch(graph: Pick<GraphEngine, 'read'>, files: QueryFiles, names: CypherSearchFiles = SHARED) {
  const search = filteredQuery(files, names.search, names.filters);
  const searchCount = filteredQuery(files, names.count, names.filters);
  const typeCounts = files.get(names.typeCounts);
  return {
    /** A page of a search with its exact total; `today` dates the brokerage filter's relationships. */
    async search(filters: SearchFilters, skip: number, limit: number, today: string): Promise<{ ids: string[]; total: number }> {
      if (filters.states.length === 0) return { ids: [], total: 0 };
      const { active, params } = composeSearch(filters, today);
      const total = Number((await graph.read(searchCount.build(active), params))[0]?.total ?? 0);
      // LadybugDB 0.19 can crash on ORDER BY ... SKIP far past the last row: never ask for such a page.
      if (skip >= total) return { ids: [], total };
      const page = await graph.read(search.build(active), { ...params, skip, limit });
      return { ids: page.map((r) => r.id as string), total };
    },
    async typeCounts(states: string[]): Promise<{ state: string; license_type: string; count: number }[]> {
      if (states.length === 0) return [];
      return (await graph.read(typeCounts, { states })) as never;
    },
  };
}
