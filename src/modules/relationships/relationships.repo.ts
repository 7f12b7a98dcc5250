import { decodeDoc } from '../../domain/credential-doc.js';
import type { GraphEngine } from '../../graph/graph-port.js';
import type { QueryFiles } from '../../graph/query-files.js';
import { inForce, isoToday, readModelEntries, type CredentialRecord } from '../licensees/licensees.repo.js';

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

/** A supervisor's relationships in the affiliates order, as parallel columns. */
interface AffiliateList {
  ids: string[];
  types: string[];
  froms: string[];
  roles: string[];
  tos: (string | null)[];
}

/** Entries of affiliate lists held at once (~150 bytes each): the largest brokers' lists stay parsed. */
const CACHED_ENTRIES = 500_000;

/**
 * An affiliate list from its read model (`aff`: see engine/ladybug/supervisor-read-model.cypher).
 * The entries start with the affiliate's sort_key and id, then the relationship type and start,
 * so sorting the entries as strings gives the documented order.
 */
function affiliateList(value: unknown): AffiliateList {
  const list: AffiliateList = { ids: [], types: [], froms: [], roles: [], tos: [] };
  for (const line of readModelEntries(value).sort()) {
    const [, id, type, from, role, to] = line.split('\t');
    list.ids.push(id);
    list.types.push(type);
    list.froms.push(from);
    list.roles.push(role);
    list.tos.push(to || null);
  }
  return list;
}

export function createRelationshipsRepo(graph: GraphEngine, files: QueryFiles, today: () => string = isoToday) {
  const affiliateListQuery = files.get('relationships/affiliate-list');
  const byIds = files.get('licensees/by-ids');
  // Parsed lists of the engine whose writes this process sees (LadybugDB), dropped at every write;
  // without that (Neo4j) each request reads its list.
  const cache = new Map<string, Promise<AffiliateList>>();
  let cachedEntries = 0;
  graph.onWrite?.(() => {
    cache.clear();
    cachedEntries = 0;
  });
  const read = async (id: string) => affiliateList((await graph.read(affiliateListQuery, { id }))[0]?.aff);
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
        cachedEntries += l.ids.length;
        for (const [key, older] of cache) {
          if (cachedEntries <= CACHED_ENTRIES || key === id) break;
          cache.delete(key);
          older.then((o) => (cachedEntries -= o.ids.length), () => undefined);
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
      const page: number[] = [];
      let total = 0;
      for (let i = 0; i < list.ids.length; i++) {
        if (!inForce({ effective_from: list.froms[i], effective_to: list.tos[i] }, day)) continue;
        if (f.affiliate_role && list.roles[i] !== f.affiliate_role) continue;
        if (f.relationship_type && list.types[i] !== f.relationship_type) continue;
        if (total >= skip && page.length < limit) page.push(i);
        total += 1;
      }
      if (!page.length) return { rows: [], total };
      const docs = new Map(
        (await graph.read(byIds, { ids: [...new Set(page.map((i) => list.ids[i]))] })).map((r) => {
          const doc = decodeDoc<CredentialRecord>(r.doc as string);
          return [doc.id, doc];
        }),
      );
      const rows = page.flatMap((i) => {
        const a = docs.get(list.ids[i]);
        if (!a) return [];
        return [
          {
            id: a.id,
            license_number: a.license_number,
            full_name: a.full_name,
            business_name: a.business_name,
            license_type: a.license_type,
            affiliate_role: list.roles[i],
            relationship_type: list.types[i],
            effective_from: list.froms[i],
          },
        ];
      });
      return { rows, total };
    },
  };
}
export type RelationshipsRepo = ReturnType<typeof createRelationshipsRepo>;
