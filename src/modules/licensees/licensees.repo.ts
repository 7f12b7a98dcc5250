import DataLoader from 'dataloader';
import { bySupervision, inForce, type AffiliationRecord, type CredentialRecord, type SupervisorRecord } from '../../domain/credential.js';
import { decodeDoc } from '../../domain/credential-doc.js';
import type { SearchFilters } from '../../domain/search-filters.js';
import { batchedReads } from '../../graph/batched-reads.js';
import type { GraphEngine, Row } from '../../graph/graph-port.js';
import { filteredQuery, type QueryFiles } from '../../graph/query-files.js';
import type { SearchIndexHolder } from '../../graph/search-port.js';
import { SegmentedLru } from './record-cache.js';
import { composeSearch, LUCENE_FILTERS, luceneQuery } from './search-query.js';
import { supervisionEntries } from './supervision-entries.js';

/** Affiliations: newest first, then by the supervisor's licence number and the relationship type. */
const byAffiliation = (a: AffiliationRecord, b: AffiliationRecord) =>
  b.effective_from.localeCompare(a.effective_from) || a.license_number.localeCompare(b.license_number) || a.relationship_type.localeCompare(b.relationship_type);

/** Credential rows kept between writes (~0.5 kB of text each). */
const CACHED_RECORDS = 50_000;

/**
 * @param searchIndex the name-search index kept beside an embedded graph; without it (Neo4j, whose
 * text indexes serve the same filters) and for filters it cannot answer, search runs in Cypher.
 */
export function createLicenseesRepo(graph: GraphEngine, files: QueryFiles, today: () => string, searchIndex?: SearchIndexHolder) {
  const byId = files.get('licensees/by-id');
  const recordsByIds = files.get('licensees/records-by-ids');
  // Neo4j reads the relationships by traversal; LadybugDB from its supervisor lists.
  const traversal = graph.name === 'neo4j'
    ? { licensees: files.get('engine/neo4j/licensees'), hierarchy: files.get('engine/neo4j/hierarchy'), affiliations: files.get('engine/neo4j/affiliations') }
    : undefined;
  const jurisdictionCoverage = files.get('licensees/jurisdiction-coverage');
  const typeCounts = files.get('licensees/type-counts');
  const search = filteredQuery(files, 'licensees/search', 'licensees/search.filters');
  // Neo4j answers name searches from its full-text index; LadybugDB from the name index beside it.
  const fullTextSearch = graph.name === 'neo4j' ? filteredQuery(files, 'engine/neo4j/search', 'licensees/search.filters') : undefined;
  const searchCount = filteredQuery(files, 'licensees/search-count', 'licensees/search.filters');

  // Records of the engine whose writes this process sees (LadybugDB) are kept (segmented LRU: see
  // record-cache.ts) until the next write, as the row's text decoded at each use: decoded ones
  // made heap objects for every major GC to mark (0006). Without write notices (Neo4j) nothing is
  // kept.
  const cache = new SegmentedLru<Row>(CACHED_RECORDS);
  let coverage: Map<string, string> | undefined;
  let writes = 0;
  graph.onWrite?.(() => {
    writes += 1;
    cache.clear();
    coverage = undefined;
  });
  /** Relationship coverage by state: a few dozen rows, kept like the records. */
  async function coverageByState(): Promise<Map<string, string>> {
    if (coverage) return coverage;
    const at = writes;
    const read = new Map((await graph.read(jurisdictionCoverage)).map((r) => [r.code as string, r.relationship_coverage as string]));
    if (graph.onWrite && writes === at) coverage = read;
    return read;
  }
  // Neo4j's traversals read each credential's coverage from its jurisdiction; LadybugDB keeps them.
  const coverageFor = (): Promise<Map<string, string>> => (traversal ? Promise.resolve(new Map()) : coverageByState());
  // A row holds the credential's fields with its coverage (Neo4j) or its JSON read model (LadybugDB).
  const record = (r: Row, coverageOf: Map<string, string>): CredentialRecord | undefined => {
    const doc = (r.record as CredentialRecord | undefined) ?? decodeDoc<CredentialRecord>(r.doc as string);
    const relationship_coverage = doc.relationship_coverage ?? coverageOf.get(doc.state);
    // A credential is always imported into a jurisdiction on file.
    return relationship_coverage === undefined ? undefined : { ...doc, relationship_coverage, supervision: supervisionEntries(r.supervisors) };
  };

  /** Credential records by id, with their supervisor lists; unknown ids are left out. */
  async function records(ids: string[]): Promise<CredentialRecord[]> {
    const kept: Row[] = [];
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      const hit = cache.get(id);
      if (hit) kept.push(hit);
      else missing.push(id);
    }
    const at = writes;
    const [coverageOf, loaded] = await Promise.all([coverageFor(), loader.loadMany(missing)]);
    const rows: Row[] = [];
    for (const r of loaded) {
      if (r instanceof Error) throw r;
      if (r) rows.push(r);
    }
    if (graph.onWrite && writes === at) {
      // Not when a write landed meanwhile: the rows may predate it.
      for (const row of rows) cache.set(row.id as string, row);
    }
    return [...kept, ...rows].flatMap((row) => record(row, coverageOf) ?? []);
  }

  // The key reads of concurrent requests go to the engine together, as one query per turn of the
  // event loop (setImmediate: after every request the poll phase parsed): a query's fixed cost
  // (CPU on LadybugDB, a round trip on Neo4j) is paid once for them all, where each
  // licence never read before used to pay it for itself. Not a cache: records() keeps rows.
  const loader = new DataLoader<string, Row | null>(
    async (ids) => {
      const rows = new Map((await read([...new Set(ids)])).map((r) => [r.id as string, r]));
      return ids.map((id) => rows.get(id) ?? null);
    },
    { cache: false, batchScheduleFn: (dispatch) => setImmediate(dispatch) },
  );

  const shape = traversal && batchedReads(graph, traversal.licensees, (r) => (r.record as Row).id);
  const walk = traversal && batchedReads(graph, traversal.hierarchy, (r) => r.start_id);
  const affiliationsOf = traversal && batchedReads(graph, traversal.affiliations, (r) => r.id);

  /** Rows ({id, doc, supervisors}) of the credentials on file among `ids`: one query. */
  async function read(ids: string[]): Promise<Row[]> {
    if (ids.length === 0) return [];
    if (traversal) return (await graph.read(traversal.licensees, { ids, day: today(), levels: 0 })).map((r) => ({ id: (r.record as Row).id, record: r.record, supervisors: r.supervision }));
    if (ids.length === 1) return graph.read(byId, { id: ids[0] });
    const docs: Row[] = [];
    const supervisors = new Map<string, unknown>();
    for (const r of await graph.read(recordsByIds, { ids })) {
      if (r.kind === 'doc') docs.push(r);
      else supervisors.set(r.id as string, r.value);
    }
    return docs.map((r) => ({ id: r.id, doc: r.value, supervisors: supervisors.get(r.id as string) ?? null }));
  }

  /** A supervisor's record with its relationship, from a row of a traversal (Neo4j). */
  const supervisorRow = (r: Row, coverageOf: Map<string, string>): SupervisorRecord | undefined => {
    const s = record({ record: r.record, supervisors: r.supervision }, coverageOf);
    if (!s) return undefined;
    return { ...s, affiliate_id: r.affiliate_id as string, affiliate_role: r.affiliate_role as string, relationship_type: r.relationship_type as string, effective_from: r.effective_from as string, effective_to: (r.effective_to as string | null) ?? null };
  };

  /**
   * The supervisors in force on `day` of these credentials, each with its relationship: one round
   * of key reads for all of them (LadybugDB), or one traversal (Neo4j). A supervisor's record
   * holds its own supervision, so a walk can go on upward without reading it again. Per
   * credential, newest relationship first.
   */
  async function supervisorsOf(credentials: Pick<CredentialRecord, 'id' | 'supervision'>[], day: string = today()): Promise<SupervisorRecord[]> {
    if (credentials.length === 0) return [];
    if (traversal) return (await withSupervisors(credentials.map((c) => c.id), undefined, day)).open;
    const open = credentials.flatMap((c) => c.supervision.filter((e) => inForce(e, day)).map((e) => ({ affiliate_id: c.id, ...e })));
    if (open.length === 0) return [];
    const supervisors = new Map((await records(open.map((e) => e.supervisor_id))).map((r) => [r.id, r]));
    const rows: SupervisorRecord[] = [];
    for (const { supervisor_id, ...edge } of open) {
      const s = supervisors.get(supervisor_id);
      if (s) rows.push({ ...s, ...edge });
    }
    return rows.sort(bySupervision);
  }

  /**
   * Credentials by id (unknown ids left out) with the supervisors in force on `day` of each and,
   * where `up` holds for a supervisor, the supervisors of that supervisor: one traversal on Neo4j
   * (which reads the second level whenever `up` is given), two rounds of key reads on LadybugDB.
   * Per credential, newest relationship first.
   */
  async function withSupervisors(ids: string[], up?: (s: SupervisorRecord) => boolean, day: string = today()): Promise<{ records: CredentialRecord[]; open: SupervisorRecord[] }> {
    if (!traversal) {
      const found = await records(ids);
      const first = await supervisorsOf(found, day);
      const listed = new Set(found.map((c) => c.id));
      const next = up ? first.filter((s) => up(s) && !listed.has(s.id) && listed.add(s.id)) : [];
      return { records: found, open: next.length ? [...first, ...(await supervisorsOf(next, day))].sort(bySupervision) : first };
    }
    const none = new Map<string, string>();
    const rows: Row[] = [];
    for (const found of await Promise.all([...new Set(ids)].map((id) => shape!(id, { day, levels: up ? 2 : 1 })))) rows.push(...found);
    const found = rows.flatMap((r) => record({ record: r.record, supervisors: r.supervision }, none) ?? []);
    const open: SupervisorRecord[] = [];
    // A supervisor's own supervisors once, whichever credentials it supervises.
    const listed = new Set(found.map((c) => c.id));
    for (const r of rows) {
      for (const first of r.open as Row[]) {
        const s = supervisorRow(first, none);
        if (!s) continue;
        open.push(s);
        if (listed.has(s.id)) continue;
        listed.add(s.id);
        for (const second of first.open as Row[]) {
          const t = supervisorRow(second, none);
          if (t) open.push(t);
        }
      }
    }
    return { records: found, open: open.sort(bySupervision) };
  }

  /**
   * A credential and every relationship in force on `day` that a walk up from it crosses within
   * `hops` levels, with its supervisor; undefined when the credential is not on file. One
   * variable-length traversal (Neo4j), or a round of key reads per level over the credentials not
   * reached before (LadybugDB).
   */
  async function walkUp(id: string, day: string, hops: number): Promise<{ start: CredentialRecord; crossed: SupervisorRecord[] } | undefined> {
    if (traversal) {
      const rows = await walk!(id, { day });
      const none = new Map<string, string>();
      // The credential's own row is the one without a relationship.
      const own = rows.find((r) => r.affiliate_id == null);
      const start = own && record(own, none);
      return start && { start, crossed: rows.flatMap((r) => (r === own ? [] : (supervisorRow(r, none) ?? []))) };
    }
    const [start] = await records([id]);
    if (!start) return undefined;
    const crossed: SupervisorRecord[] = [];
    const seen = new Set([start.id]);
    let frontier: Pick<CredentialRecord, 'id' | 'supervision'>[] = [start];
    for (let level = 0; level < hops && frontier.length; level++) {
      const open = await supervisorsOf(frontier, day);
      crossed.push(...open);
      frontier = open.filter((s) => !seen.has(s.id) && seen.add(s.id));
    }
    return { start, crossed };
  }

  /**
   * The relationships into a credential with their supervisors, newest first: without `as_of`,
   * those in force today (or all of them, `include_inactive`); with it, those in force that day
   * (or every one started by then). Undefined when the credential is not on file.
   */
  async function affiliations(id: string, f: { as_of?: string; include_inactive: boolean; affiliate_role?: string; relationship_type?: string }): Promise<AffiliationRecord[] | undefined> {
    const day = f.as_of ?? today();
    if (traversal) {
      const params = { day, as_of: f.as_of !== undefined, include_inactive: f.include_inactive, affiliate_role: f.affiliate_role ?? null, relationship_type: f.relationship_type ?? null };
      const [found] = await affiliationsOf!(id, params);
      return found && (found.affiliations as Row[]).map((r) => ({ ...(r as unknown as AffiliationRecord), effective_to: (r.effective_to as string | null) ?? null })).sort(byAffiliation);
    }
    const [c] = await records([id]);
    if (!c) return undefined;
    const wanted = c.supervision.filter(
      (r) =>
        (f.include_inactive ? !f.as_of || r.effective_from <= day : inForce(r, day)) &&
        (!f.affiliate_role || r.affiliate_role === f.affiliate_role) &&
        (!f.relationship_type || r.relationship_type === f.relationship_type),
    );
    const supervisors = new Map((await records(wanted.map((r) => r.supervisor_id))).map((s) => [s.id, s]));
    const rows = wanted.flatMap((r): AffiliationRecord[] => {
      const s = supervisors.get(r.supervisor_id);
      return s ? [{ id: s.id, license_number: s.license_number, full_name: s.full_name, business_name: s.business_name, affiliate_role: r.affiliate_role, relationship_type: r.relationship_type, effective_from: r.effective_from, effective_to: r.effective_to }] : [];
    });
    return rows.sort(byAffiliation);
  }

  return {
    byIds: records,
    supervisorsOf,
    withSupervisors,
    walkUp,
    affiliations,
    async search(filters: SearchFilters, skip: number, limit: number): Promise<{ ids: string[]; total: number }> {
      if (filters.states.length === 0) return { ids: [], total: 0 };
      const indexed = searchIndex && (await searchIndex.current()).search(filters, skip, limit);
      if (indexed) return indexed;
      const { active, params } = composeSearch(filters, today());
      const lucene = fullTextSearch && luceneQuery(filters);
      if (fullTextSearch && lucene) {
        const rest = active.filter((a) => !LUCENE_FILTERS.has(a.key));
        const [row] = await graph.read(fullTextSearch.build(rest), { ...params, query: lucene, skip, limit });
        return { ids: (row?.ids as string[]) ?? [], total: Number(row?.total ?? 0) };
      }
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
export type LicenseesRepo = ReturnType<typeof createLicenseesRepo>;
