import type { JurisdictionRecord } from '../../domain/jurisdictions.js';
import { byAffiliation, bySupervision, bySupervisionEntry, type CounterpartRecord, type RosterChangeRecord, type RosterChangeSummary, type RosterPeriodChanges, type AffiliateRecord, type AffiliationRecord, type CredentialRecord, type ShapeSupervisor, type SupervisionEntry, type SupervisorRecord, SHAPE_SUPERVISOR_FIELDS } from '../../domain/credential.js';
import { batchedReads } from '../batched-reads.js';
import type { GraphEngine, Row } from '../graph-port.js';
import type { QueryFiles } from '../query-files.js';
import type { GraphReads } from '../reads-port.js';
import { neo4jInForce } from './in-force.js';

// Neo4j reads every relationship by traversal (cypher/engine/neo4j/): no read models, and nothing
// kept between requests, since other processes may write the same database. Every query keeps the
// versions valid at the published generation, $g, which the engine passes (engine.ts).

/** Neo4j takes SKIP as an integer, never a float (a JS offset past 2^53 is one): past that is past the end all the same. */
const offset = (skip: number) => Math.min(skip, Number.MAX_SAFE_INTEGER);
/** A bound of a Cypher list slice, which takes a 32-bit index. */
const listIndex = (i: number) => Math.min(i, 2 ** 31 - 1);

/** A credential's public fields in the order licensees.cypher and hierarchy.cypher list them in `record`. */
const CREDENTIAL_FIELDS = [
  'id', 'state', 'license_number', 'license_number_display', 'license_type', 'license_type_display', 'status', 'status_normalized', 'entity_type',
  'full_name', 'first_name', 'middle_name', 'last_name', 'suffix', 'business_name', 'issue_date', 'expiration_date', 'address_kind', 'address_line1',
  'address_line2', 'address_city', 'address_county', 'address_region', 'address_postal_code', 'address_country', 'source', 'snapshot_date',
  'last_verified', 'data_source_notes', 'relationship_coverage', 'context_brokerage',
] as const;
/** The values a published refresh may leave pending (p_*: overlay-credentials.cypher), listed after the fields in this order, or null. */
const PENDING_FIELDS = [
  'license_number_display', 'license_type_display', 'status', 'status_normalized', 'issue_date', 'expiration_date', 'address_kind', 'address_line1',
  'address_line2', 'address_city', 'address_county', 'address_region', 'address_postal_code', 'address_country', 'source',
] as const;

/**
 * A credential's entries in (lists of supervisor id, role, type, from and to), in their order. An
 * entry without a type is a relationship deleted while it was read (collection past a reader's 120 s).
 */
const supervision = (value: unknown): SupervisionEntry[] =>
  ((value ?? []) as [string, string, string, string, string | null][])
    .filter((e) => e[2] != null)
    .map(([supervisor_id, affiliate_role, relationship_type, effective_from, effective_to]) => ({ supervisor_id, affiliate_role, relationship_type, effective_from, effective_to: effective_to ?? null }))
    .sort(bySupervisionEntry);

/** A record list's fields named by `names` in order, then the pending values (or null) in place of theirs. */
const valuesOf = (r: Row, names: readonly string[]): Row => {
  const values = r.record as unknown[];
  const fields: Row = {};
  for (let i = 0; i < names.length; i++) fields[names[i]] = values[i];
  const pending = values[names.length] as unknown[] | null;
  if (pending) for (let i = 0; i < PENDING_FIELDS.length; i++) fields[PENDING_FIELDS[i]] = pending[i];
  return fields;
};

/**
 * A credential's fields from a traversal's row, with its jurisdiction's coverage (the pending
 * values in place of their fields). None outside a jurisdiction (an import always links one).
 */
const fieldsOf = (r: Row): Row | undefined => {
  const fields = valuesOf(r, CREDENTIAL_FIELDS);
  return fields.relationship_coverage == null ? undefined : fields;
};

/** A credential with its relationships in, from a traversal's row. */
const record = (r: Row): CredentialRecord[] => {
  const fields = fieldsOf(r);
  if (!fields) return [];
  fields.supervision = supervision(r.supervision);
  return [fields as unknown as CredentialRecord];
};

/**
 * A supervisor's record with its relationship, from a row of a traversal (`brief`: read with
 * $brief, so only what the public shape shows). Its fields are set on the object made for it: a
 * copy by rest and spread took a search page's Node CPU a tenth.
 */
const supervisorOf = (r: Row, brief: boolean): Row | undefined => {
  const fields = r.relationship_type == null ? undefined : brief ? valuesOf(r, SHAPE_SUPERVISOR_FIELDS) : fieldsOf(r);
  if (!fields) return undefined;
  fields.affiliate_id = r.affiliate_id as string;
  fields.affiliate_role = r.affiliate_role as string;
  fields.relationship_type = r.relationship_type as string;
  fields.effective_from = r.effective_from as string;
  fields.effective_to = (r.effective_to as string | null) ?? null;
  return fields;
};
const supervisorRow = (r: Row): SupervisorRecord[] => {
  const s = supervisorOf(r, false);
  return s ? [s as unknown as SupervisorRecord] : [];
};

type Cells = (string | null)[];
const counterpart = (c: Cells | null): CounterpartRecord | null =>
  c && { id: c[0]!, license_number: c[1]!, full_name: c[2], business_name: c[3], effective_from: c[4]!, effective_to: c[5] };
/** A roster change on a page, from its list in roster-changes.cypher's order. */
const rosterSummary = (c: Cells): RosterChangeSummary => ({
  ref: c[0]!, id: c[1]!, license_number: c[2]!, affiliate_role: c[3]!, relationship_type: c[4]!, effective_from: c[5]!, effective_to: c[6],
});
/** A period's list as roster-changes.cypher counts it: joined or left, the period's index, its count and transfers, its page. */
type RosterList = [boolean, number, number, number, Cells[]];
/** A roster change's record, from its row's list in roster-change-records.cypher's order (its ref first). */
const rosterChange = (c: Cells): RosterChangeRecord => ({
  id: c[1]!, license_number: c[2]!, full_name: c[3], business_name: c[4], license_type: c[5], affiliate_role: c[6]!, relationship_type: c[7]!,
  effective_from: c[8]!, effective_to: c[9], came_from: counterpart(c[10] as unknown as Cells | null), went_to: counterpart(c[11] as unknown as Cells | null),
});

export function neo4jReads(graph: GraphEngine, files: QueryFiles, today: () => string): GraphReads {
  const typeCounts = files.get('engine/neo4j/type-counts');
  const affiliatesQuery = files.get('engine/neo4j/affiliates');
  const rosterChangesQuery = files.get('engine/neo4j/roster-changes');
  const rosterChangesTraversal = files.get('engine/neo4j/roster-changes-traversal');
  const rosterChangesDays = files.get('engine/neo4j/roster-changes-days');
  const rosterChangeRecords = files.get('engine/neo4j/roster-change-records');
  const inForcePage = files.get('engine/neo4j/affiliates-in-force');
  const inForceFiltered = files.get('engine/neo4j/affiliates-in-force-filtered');
  const inForceTotal = files.get('engine/neo4j/affiliates-in-force-total');
  const inForceFromEnd = files.get('engine/neo4j/affiliates-in-force-from-end');
  const inForce = neo4jInForce(graph, files);
  // Concurrent requests' traversals go to Neo4j together, one query per turn of the event loop.
  const shape = batchedReads(graph, files.get('engine/neo4j/licensees'), (r) => r.id);
  const walk = batchedReads(graph, files.get('engine/neo4j/hierarchy'), (r) => r.start_id);
  const affiliationsOf = batchedReads(graph, files.get('engine/neo4j/affiliations'), (r) => r.id);

  /** Rows of the credentials among `ids` with their supervisors `levels` deep (0: none), `brief` or whole. */
  const shapes = async (ids: string[], day: string, levels: number, brief = false): Promise<Row[]> =>
    (await Promise.all([...new Set(ids)].map((id) => shape(id, { day, levels, brief })))).flat();

  /** withSupervisors' records and supervisors (Rows of their records' fields), the supervisors whole or `brief` (shapeSupervisors). */
  const supervised = async (ids: string[], up: ((s: Row) => boolean) | undefined, day: string, brief: boolean) => {
    // Neo4j reads the second level whenever `up` is given; the filter picks what is kept of it.
    const rows = await shapes(ids, day, up ? 2 : 1, brief);
    const records = rows.filter((r) => r.level === 0).flatMap(record);
    // The second level by the credential read and the supervisor it is above.
    const above = new Map<string, Row[]>();
    for (const r of rows) {
      if (r.level !== 2) continue;
      const key = `${r.id}\u0000${r.affiliate_id}`;
      const list = above.get(key);
      if (list) list.push(r);
      else above.set(key, [r]);
    }
    const open: Row[] = [];
    // A supervisor's own supervisors once, whichever credentials it supervises.
    const listed = new Set(records.map((c) => c.id));
    for (const r of rows) {
      if (r.level !== 1) continue;
      const s = supervisorOf(r, brief);
      if (!s) continue;
      open.push(s);
      if (!up || !up(s) || listed.has(s.id as string)) continue;
      listed.add(s.id as string);
      for (const second of above.get(`${r.id}\u0000${s.id}`) ?? []) {
        const t = supervisorOf(second, brief);
        if (t) open.push(t);
      }
    }
    return { records, open: (open as unknown as ShapeSupervisor[]).sort(bySupervision) };
  };

  return {
    async byIds(ids) {
      return (await shapes(ids, today(), 0)).flatMap(record);
    },

    withSupervisors: async (ids, up, day = today()) => {
      const { records, open } = await supervised(ids, up as ((s: Row) => boolean) | undefined, day, false);
      return { records, open: open as SupervisorRecord[] };
    },
    shapeSupervisors: (ids, up) => supervised(ids, up as (s: Row) => boolean, today(), true),

    async walkUp(id, day) {
      const rows = await walk(id, { day });
      // The credential's own row is the one without a relationship.
      const own = rows.find((r) => r.affiliate_id == null);
      const [start] = own ? record(own) : [];
      return start && { start, crossed: rows.filter((r) => r !== own).flatMap(supervisorRow) };
    },

    async affiliations(id, f) {
      const params = { day: f.as_of ?? today(), as_of: f.as_of !== undefined, include_inactive: f.include_inactive, affiliate_role: f.affiliate_role ?? null, relationship_type: f.relationship_type ?? null };
      const [found] = await affiliationsOf(id, params);
      return found && (found.affiliations as Row[]).map((r) => ({ ...(r as unknown as AffiliationRecord), effective_to: (r.effective_to as string | null) ?? null })).sort(byAffiliation);
    },

    async affiliates(id, f, skip, limit) {
      const day = today();
      const filtered = f.affiliate_role != null || f.relationship_type != null;
      const params = { id, today: day, affiliate_role: f.affiliate_role ?? null, relationship_type: f.relationship_type ?? null, skip: offset(skip), limit };
      let found: Row | undefined;
      if (!filtered && skip >= 2 * limit) {
        // Past the roster's middle, the page is read from the end of the index: a page of entries, not the roster.
        const [count] = await graph.read(inForceTotal, { id, today: day });
        const total = Number(count?.total ?? 0);
        if (count && skip >= total) return { rows: [], total };
        if (count && skip >= total / 2) {
          const [end] = await graph.read(inForceFromEnd, { id, today: day, from_end: Math.max(0, total - skip - limit), limit: Math.min(limit, total - skip) });
          if (end) return { rows: (end.page as AffiliateRecord[]).reverse(), total };
        }
      }
      [found] = await graph.read(filtered ? inForceFiltered : inForcePage, filtered ? params : { id, today: day, skip: params.skip, limit });
      if (!found) {
        // The in-force relationships hold another day: this read traverses, and they move to today.
        inForce.moveTo(day).catch(() => undefined);
        [found] = await graph.read(affiliatesQuery, params);
      }
      return { rows: (found?.page ?? []) as AffiliateRecord[], total: Number(found?.total ?? 0) };
    },

    async rosterPeriods(id, starts, to, f, windowDays, skip, limit) {
      const params = {
        id, from: starts[0], starts, to, window: windowDays, affiliate_role: f.affiliate_role ?? null, relationship_type: f.relationship_type ?? null,
        skip: listIndex(skip), end: listIndex(skip + limit),
      };
      // Unfiltered, the day counts serve (a page costs a page); else, or before they are built, every change is read.
      let [found] = f.affiliate_role || f.relationship_type ? [] : await graph.read(rosterChangesDays, params);
      if (!found?.built || !found.held) [found] = await graph.read(rosterChangesQuery, params);
      // No in-force relationships yet (the schema builds them at the first start): every relationship is read.
      if (found && !found.held) [found] = await graph.read(rosterChangesTraversal, params);
      const periods: RosterPeriodChanges[] = starts.map(() => ({ joined: 0, left: 0, transfers_in: 0, transfers_out: 0, joinedPage: [], leftPage: [] }));
      for (const [joined, period, n, moved, page] of (found?.periods ?? []) as RosterList[]) {
        const p = periods[period];
        if (joined) Object.assign(p, { joined: n, transfers_in: moved, joinedPage: page.map(rosterSummary) });
        else Object.assign(p, { left: n, transfers_out: moved, leftPage: page.map(rosterSummary) });
      }
      return { before: Number(found?.before ?? 0), periods };
    },

    async rosterChangeRecords(id, from, to, windowDays, changes) {
      if (!changes.length) return [];
      const [found] = await graph.read(rosterChangeRecords, { id, from, to, window: windowDays, refs: changes.map((c) => c.ref) });
      const byRef = new Map(((found?.changes ?? []) as Cells[]).map((c) => [c[0]!, c]));
      return changes.flatMap((c) => {
        const cells = byRef.get(c.ref);
        return cells ? [rosterChange(cells)] : [];
      });
    },

    async typeCounts(states) {
      return states.length ? ((await graph.read(typeCounts, { states })) as never) : [];
    },
    jurisdictions: async () => (await graph.read(files.get('coverage/jurisdictions'))) as unknown as JurisdictionRecord[],
  };
}
