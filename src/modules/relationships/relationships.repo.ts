import type { GraphEngine } from '../../graph/graph-port.js';
import type { QueryFiles } from '../../graph/query-files.js';
import { inForce } from '../../domain/credential.js';
import { readModelEntries } from '../licensees/supervision-entries.js';

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

/** A supervisor's relationships in the affiliates order: the entry lines, each split only when its page is read (0006). */
type AffiliateList = string[];

/** Fields of an entry (see affiliateList), by position. */
const TYPE = 2;
const FROM = 3;
const ROLE = 4;
const TO = 5;

/** The n-th tab-separated field of an entry line; empty when the line has fewer. */
function fieldOf(line: string, n: number): string {
  let start = 0;
  for (let i = 0; i < n; i++) {
    const tab = line.indexOf('\t', start);
    if (tab === -1) return '';
    start = tab + 1;
  }
  const end = line.indexOf('\t', start);
  return end === -1 ? line.slice(start) : line.slice(start, end);
}

/** Entries of affiliate lists held at once (~150 bytes each, one string an entry): the largest brokers' lists stay read. */
const CACHED_ENTRIES = 500_000;

/**
 * An affiliate list from its read model (AffiliateList: LadybugDB; see src/ingest/read-models.ts).
 * The entries start with the affiliate's sort_key and id, then the relationship type and start,
 * so sorting the entries as strings gives the documented order.
 */
const affiliateList = (value: unknown): AffiliateList => readModelEntries(value).sort();

export function createRelationshipsRepo(graph: GraphEngine, files: QueryFiles, today: () => string) {
  const affiliateListQuery = files.get('relationships/affiliate-list');
  // Neo4j pages the relationships by traversal; LadybugDB reads its affiliate lists.
  const affiliatesQuery = graph.name === 'neo4j' ? files.get('engine/neo4j/affiliates') : undefined;
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

  // The positions of a list's entries in force on the day asked and matching the filters, kept per
  // list and filter until the day changes (filters are enum values: a few dozen combinations at
  // most), so that a page is a slice (0006).
  const positions = new WeakMap<AffiliateList, { day: string; byFilter: Map<string, number[]> }>();
  const matching = (list: AffiliateList, day: string, f: EdgeFilters): number[] => {
    let kept = positions.get(list);
    if (kept?.day !== day) positions.set(list, (kept = { day, byFilter: new Map() }));
    const key = `${f.affiliate_role ?? ''}\t${f.relationship_type ?? ''}`;
    let at = kept.byFilter.get(key);
    if (!at) {
      at = [];
      for (const [i, line] of list.entries()) {
        if (!inForce({ effective_from: fieldOf(line, FROM), effective_to: fieldOf(line, TO) || null }, day)) continue;
        if (f.affiliate_role && fieldOf(line, ROLE) !== f.affiliate_role) continue;
        if (f.relationship_type && fieldOf(line, TYPE) !== f.relationship_type) continue;
        at.push(i);
      }
      kept.byFilter.set(key, at);
    }
    return at;
  };

  return {
    /** One page of the relationships in force today from a supervising credential, and their exact number. */
    async affiliates(id: string, f: EdgeFilters, skip: number, limit: number): Promise<{ rows: AffiliateRecord[]; total: number }> {
      if (affiliatesQuery) {
        const params = { id, today: today(), affiliate_role: f.affiliate_role ?? null, relationship_type: f.relationship_type ?? null, skip, limit };
        const [found] = await graph.read(affiliatesQuery, params);
        return { rows: (found?.page ?? []) as AffiliateRecord[], total: Number(found?.total ?? 0) };
      }
      const list = await listOf(id);
      const wanted = matching(list, today(), f);
      const rows = wanted.slice(skip, skip + limit).map((i): AffiliateRecord => {
        const [, affiliate, type, from, role, , number, licenseType, fullName, businessName] = list[i].split('\t');
        return {
          id: affiliate,
          license_number: number,
          full_name: fullName || null,
          business_name: businessName || null,
          license_type: licenseType || null,
          affiliate_role: role,
          relationship_type: type,
          effective_from: from,
        };
      });
      return { rows, total: wanted.length };
    },
  };
}
export type RelationshipsRepo = ReturnType<typeof createRelationshipsRepo>;
