import type { GraphEngine } from '../../graph/graph-port.js';
import type { QueryFiles } from '../../graph/query-files.js';
import { inForce, isoToday, readModelEntries } from '../licensees/licensees.repo.js';

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

/** A supervisor's relationships in the affiliates order: the entry lines, split when read. */
type AffiliateList = string[][];

/** Entries of affiliate lists held at once (~150 bytes each): the largest brokers' lists stay parsed. */
const CACHED_ENTRIES = 500_000;

/**
 * An affiliate list from its read model (AffiliateList: see engine/neo4j/affiliate-list.cypher, src/ingest/read-models.ts).
 * The entries start with the affiliate's sort_key and id, then the relationship type and start,
 * so sorting the entries as strings gives the documented order.
 */
const affiliateList = (value: unknown): AffiliateList => readModelEntries(value).sort().map((line) => line.split('\t'));

export function createRelationshipsRepo(graph: GraphEngine, files: QueryFiles, today: () => string = isoToday) {
  const affiliateListQuery = files.get('relationships/affiliate-list');
  // Parsed lists of the engine whose writes this process sees (LadybugDB), dropped at every write;
  // without that (Neo4j) each request reads its list.
  const cache = new Map<string, Promise<AffiliateList>>();
  let cachedEntries = 0;
  graph.onWrite?.(() => {
    cache.clear();
    cachedEntries = 0;
  });
  const read = async (id: string) => affiliateList((await graph.read(affiliateListQuery, { id }))[0]?.entries);
  const listOf = (id: string): Promise<AffiliateList> => {
    if (!graph.onWrite) return read(id);
    let list = cache.get(id);
    if (list) {
      // Least recently used last out.
      cache.delete(id);
      cache.set(id, list);
      return list;
    }
    list = read(id);
    cache.set(id, list);
    list.then(
      (l) => {
        if (cache.get(id) !== list) return;
        cachedEntries += l.length;
        for (const [key, older] of cache) {
          if (cachedEntries <= CACHED_ENTRIES || key === id) break;
          cache.delete(key);
          older.then((o) => (cachedEntries -= o.length), () => undefined);
        }
      },
      () => cache.delete(id),
    );
    return list;
  };

  return {
    /** One page of the relationships in force today from a supervising credential, and their exact number. */
    async affiliates(id: string, f: EdgeFilters, skip: number, limit: number): Promise<{ rows: AffiliateRecord[]; total: number }> {
      const list = await listOf(id);
      const day = today();
      const rows: AffiliateRecord[] = [];
      let total = 0;
      for (const [, affiliate, type, from, role, to, number, licenseType, fullName, businessName] of list) {
        if (!inForce({ effective_from: from, effective_to: to || null }, day)) continue;
        if (f.affiliate_role && role !== f.affiliate_role) continue;
        if (f.relationship_type && type !== f.relationship_type) continue;
        if (total >= skip && rows.length < limit) {
          rows.push({
            id: affiliate,
            license_number: number,
            full_name: fullName || null,
            business_name: businessName || null,
            license_type: licenseType || null,
            affiliate_role: role,
            relationship_type: type,
            effective_from: from,
          });
        }
        total += 1;
      }
      return { rows, total };
    },
  };
}
export type RelationshipsRepo = ReturnType<typeof createRelationshipsRepo>;
