import type { JurisdictionRecord } from '../../domain/jurisdictions.js';
import DataLoader from 'dataloader';
import { addDays } from '../../domain/dates.js';
import { countBelow } from '../../domain/sorted.js';
import { byAffiliation, byRosterChange, bySupervision, counterpartEntry, inForce, matchesEdge, type AffiliateRecord, type CounterpartRecord, type RosterChangeRecord, type RosterChangeSummary, type SupervisionEntry, type AffiliationRecord, type CredentialRecord, type EdgeFilters, type SupervisorRecord } from '../../domain/credential.js';
import { decodeDoc } from '../credential-doc.js';
import type { GraphEngine, Row } from '../graph-port.js';
import type { QueryFiles } from '../query-files.js';
import type { GraphReads } from '../reads-port.js';
import { affiliateField, affiliateOf, listEntries, supervisionOf } from './read-models.js';
import { WriteCache } from './write-cache.js';

// LadybugDB reads relationships from its read models (read-models.ts): each credential's JSON
// document and supervisor list, each supervisor's affiliate list. All writes go through this
// process, so what is read is kept until the next write (0006).

/** Credential rows kept between writes (~0.5 kB of text each). */
const CACHED_RECORDS = 50_000;
/** Entries of affiliate lists kept (~150 bytes each): the largest brokers' lists stay read. */
const CACHED_ENTRIES = 500_000;

/** A relationship of a supervisor as the roster history reads it, with where its affiliate came from and went once worked out. */
interface RosterEntry {
  line: string;
  affiliate_id: string;
  relationship_type: string;
  affiliate_role: string;
  effective_from: string;
  effective_to: string | null;
  moves?: { came_from: CounterpartRecord | null; went_to: CounterpartRecord | null };
  /** The affiliate's fields, decoded once a history names it. */
  record?: AffiliateRecord;
}

const rosterEntry = (line: string): RosterEntry => ({
  line,
  affiliate_id: affiliateField(line, 'id'),
  relationship_type: affiliateField(line, 'type'),
  affiliate_role: affiliateField(line, 'role'),
  effective_from: affiliateField(line, 'from'),
  effective_to: affiliateField(line, 'to') || null,
});

/** A roster's entries (positions) matching a filter, by start and by end, with the days to search them by. */
interface RosterIndex {
  /** Positions by start, and by end: by day, then byRosterChange. */
  starts: Int32Array;
  startDays: string[];
  /** Those with an end. */
  ends: Int32Array;
  endDays: string[];
  /** Sorted: the later of each ended entry's start and end. */
  closeDays: string[];
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** A supervisor's affiliate list: its entries sorted as text, which is the affiliates order. */
type AffiliateList = string[];

/** A row kept per credential: its document and supervisor list as read, decoded at each use (0006). */
interface CredentialRow {
  doc: string;
  supervisors: unknown;
}

export function ladybugReads(graph: Pick<GraphEngine, 'read'> & { onWrite(listener: () => void): void }, files: QueryFiles, today: () => string): GraphReads {
  const byId = files.get('engine/ladybug/by-id');
  const recordsByIds = files.get('engine/ladybug/records-by-ids');
  const jurisdictionCoverage = files.get('engine/ladybug/jurisdiction-coverage');
  const affiliateListQuery = files.get('engine/ladybug/affiliate-list');
  const typeCounts = files.get('licensees/type-counts');
  const rows = new WriteCache<CredentialRow>((l) => graph.onWrite(l), CACHED_RECORDS);
  const lists = new WriteCache<AffiliateList>((l) => graph.onWrite(l), CACHED_ENTRIES, (list) => list.length);
  /** Supervisors' relationships parsed for the roster history, kept like the lists they come from. */
  const rosters = new WriteCache<RosterEntry[]>((l) => graph.onWrite(l), CACHED_ENTRIES, (r) => r.length);
  /** Relationship coverage by state: a few dozen rows, kept like the rest. */
  const coverage = new WriteCache<Map<string, string>>((l) => graph.onWrite(l), 1);
  const coverageByState = () =>
    coverage.fetch('', async () => new Map((await graph.read(jurisdictionCoverage)).map((r) => [r.code as string, r.relationship_coverage as string])));

  /** Rows of the credentials on file among `ids`: one query. */
  async function read(ids: string[]): Promise<Map<string, CredentialRow>> {
    const out = new Map<string, CredentialRow>();
    if (ids.length === 1) {
      for (const r of await graph.read(byId, { id: ids[0] })) out.set(r.id as string, { doc: r.doc as string, supervisors: r.supervisors });
      return out;
    }
    const supervisors = new Map<string, unknown>();
    const docs: Row[] = [];
    for (const r of await graph.read(recordsByIds, { ids })) {
      if (r.kind === 'doc') docs.push(r);
      else supervisors.set(r.id as string, r.value);
    }
    for (const r of docs) out.set(r.id as string, { doc: r.value as string, supervisors: supervisors.get(r.id as string) ?? null });
    return out;
  }

  // The key reads of concurrent requests go to the engine together, as one query per turn of the
  // event loop (setImmediate: after every request the poll phase parsed): a query's fixed cost is
  // paid once for them all. Not a cache: the write cache keeps rows.
  const loader = new DataLoader<string, CredentialRow | null>(
    async (ids) => {
      const found = await read([...new Set(ids)]);
      return ids.map((id) => found.get(id) ?? null);
    },
    { cache: false, batchScheduleFn: (dispatch) => setImmediate(dispatch) },
  );

  /** Credential records by id, with their supervisor lists; unknown ids are left out. */
  async function records(ids: string[]): Promise<CredentialRecord[]> {
    const kept: CredentialRow[] = [];
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      const hit = rows.get(id);
      if (hit) kept.push(hit);
      else missing.push(id);
    }
    const [coverageOf, loaded] = await Promise.all([
      coverageByState(),
      missing.length
        ? rows.loadMany(missing, async (keys) => {
            const found = new Map<string, CredentialRow>();
            for (const [i, r] of (await loader.loadMany(keys)).entries()) {
              if (r instanceof Error) throw r;
              if (r) found.set(keys[i], r);
            }
            return found;
          })
        : new Map<string, CredentialRow>(),
    ]);
    return [...kept, ...loaded.values()].flatMap((r) => {
      const doc = decodeDoc<CredentialRecord>(r.doc);
      const relationship_coverage = doc.relationship_coverage ?? coverageOf.get(doc.state);
      // A credential is always imported into a jurisdiction on file.
      return relationship_coverage === undefined ? [] : [{ ...doc, relationship_coverage, supervision: supervisionOf(r.supervisors) }];
    });
  }

  /**
   * The supervisors in force on `day` of these credentials, each with its relationship: one round
   * of key reads. With their own supervision, for the next round.
   */
  async function supervisorsOf(credentials: Pick<CredentialRecord, 'id' | 'supervision'>[], day: string): Promise<(SupervisorRecord & Pick<CredentialRecord, 'supervision'>)[]> {
    const open = credentials.flatMap((c) => c.supervision.filter((e) => inForce(e, day)).map((e) => ({ affiliate_id: c.id, ...e })));
    if (open.length === 0) return [];
    const supervisors = new Map((await records(open.map((e) => e.supervisor_id))).map((r) => [r.id, r]));
    const found: (SupervisorRecord & Pick<CredentialRecord, 'supervision'>)[] = [];
    for (const { supervisor_id, ...edge } of open) {
      const s = supervisors.get(supervisor_id);
      if (s) found.push({ ...s, ...edge });
    }
    return found.sort(bySupervision);
  }

  const listOf = (id: string): Promise<AffiliateList> =>
    lists.fetch(id, async () => listEntries((await graph.read(affiliateListQuery, { id }))[0]?.entries).sort());

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
        if (!inForce({ effective_from: affiliateField(line, 'from'), effective_to: affiliateField(line, 'to') || null }, day)) continue;
        if (!matchesEdge({ affiliate_role: affiliateField(line, 'role'), relationship_type: affiliateField(line, 'type') }, f)) continue;
        at.push(i);
      }
      kept.byFilter.set(key, at);
    }
    return at;
  };

  // The supervisor's affiliate list holds every relationship it supervises, ended ones included.
  const rosterOf = (id: string, windowDays: number) => rosters.fetch(`${id}|${windowDays}`, async () => (await listOf(id)).map(rosterEntry));
  /**
   * A roster's entries matching a filter in date order, kept with the roster until the next write:
   * a period's joiners and leavers are runs found by binary search, not a pass over the roster.
   */
  const rosterIndexes = new WeakMap<RosterEntry[], { rank: Int32Array; byFilter: Map<string, RosterIndex> }>();
  const rosterIndex = (roster: RosterEntry[], f: EdgeFilters): RosterIndex => {
    let kept = rosterIndexes.get(roster);
    if (!kept) {
      // Each entry's place in byRosterChange order, once per roster: a list's ties on a day sort by it.
      const keyed = roster.map((e, i) => ({ i, id: e.affiliate_id, license_number: affiliateField(e.line, 'number'), relationship_type: e.relationship_type, effective_from: e.effective_from, affiliate_role: e.affiliate_role }));
      const rank = new Int32Array(roster.length);
      keyed.sort(byRosterChange).forEach((k, r) => (rank[k.i] = r));
      rosterIndexes.set(roster, (kept = { rank, byFilter: new Map() }));
    }
    const key = `${f.affiliate_role ?? ''}\t${f.relationship_type ?? ''}`;
    let ix = kept.byFilter.get(key);
    if (!ix) {
      const wanted = roster.flatMap((e, i) => (matchesEdge(e, f) ? [i] : []));
      const ended = wanted.filter((i) => roster[i].effective_to !== null);
      // A list's order: by day, then byRosterChange (rank).
      const { rank } = kept;
      const starts = Int32Array.from(wanted).sort((a, b) => cmp(roster[a].effective_from, roster[b].effective_from) || rank[a] - rank[b]);
      const ends = Int32Array.from(ended).sort((a, b) => cmp(roster[a].effective_to!, roster[b].effective_to!) || rank[a] - rank[b]);
      // In force on day d: effective_from <= d < effective_to, so closed by d when both are at most d.
      const closeDays = ended.map((i) => { const e = roster[i]; return e.effective_to! > e.effective_from ? e.effective_to! : e.effective_from; }).sort();
      ix = { starts, startDays: Array.from(starts, (i) => roster[i].effective_from), ends, endDays: Array.from(ends, (i) => roster[i].effective_to!), closeDays };
      kept.byFilter.set(key, ix);
    }
    return ix;
  };

  /**
   * Where each entry's affiliate came from or went, worked out once per relationship until the next
   * write: it decodes the affiliate's record and its counterparts', which a year of a big roster repeats.
   */
  const movesOf = async (id: string, windowDays: number, entries: RosterEntry[]) => {
    const missing = entries.filter((e) => !e.moves);
    if (!missing.length) return;
    const affiliates = new Map((await records([...new Set(missing.map((e) => e.affiliate_id))])).map((r) => [r.id, r]));
    const links = missing.map((e) => {
      const supervision = affiliates.get(e.affiliate_id)?.supervision ?? [];
      const came = counterpartEntry(supervision, id, e.relationship_type, e.effective_from, true, windowDays, addDays);
      const went = e.effective_to === null ? undefined : counterpartEntry(supervision, id, e.relationship_type, e.effective_to, false, windowDays, addDays);
      return { e, came, went };
    });
    const others = new Map((await records([...new Set(links.flatMap((l) => [l.came?.supervisor_id, l.went?.supervisor_id]).filter((s): s is string => !!s))])).map((r) => [r.id, r]));
    const counterpart = (c: SupervisionEntry | undefined) => {
      const o = c && others.get(c.supervisor_id);
      return o ? { id: o.id, license_number: o.license_number, full_name: o.full_name, business_name: o.business_name, effective_from: c.effective_from, effective_to: c.effective_to } : null;
    };
    for (const l of links) l.e.moves = { came_from: counterpart(l.came), went_to: counterpart(l.went) };
  };

  const withSupervisors: GraphReads['withSupervisors'] = async (ids, up, day = today()) => {
    const found = await records(ids);
    const first = await supervisorsOf(found, day);
    const listed = new Set(found.map((c) => c.id));
    const next = up ? first.filter((s) => up(s) && !listed.has(s.id) && listed.add(s.id)) : [];
    return { records: found, open: next.length ? [...first, ...(await supervisorsOf(next, day))].sort(bySupervision) : first };
  };

  return {
    byIds: records,

    withSupervisors,
    // A supervisor's document holds every field: the shape's are among them.
    shapeSupervisors: (ids, up) => withSupervisors(ids, up),

    async walkUp(id, day, hops) {
      // A round of key reads per level, over the credentials not reached before.
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
    },

    async affiliations(id, f) {
      const day = f.as_of ?? today();
      const [c] = await records([id]);
      if (!c) return undefined;
      const wanted = c.supervision.filter(
        (r) => (f.include_inactive ? !f.as_of || r.effective_from <= day : inForce(r, day)) && matchesEdge(r, f),
      );
      const supervisors = new Map((await records(wanted.map((r) => r.supervisor_id))).map((s) => [s.id, s]));
      return wanted
        .flatMap((r): AffiliationRecord[] => {
          const s = supervisors.get(r.supervisor_id);
          return s ? [{ id: s.id, license_number: s.license_number, full_name: s.full_name, business_name: s.business_name, affiliate_role: r.affiliate_role, relationship_type: r.relationship_type, effective_from: r.effective_from, effective_to: r.effective_to }] : [];
        })
        .sort(byAffiliation);
    },

    async affiliates(id, f, skip, limit) {
      const list = await listOf(id);
      const wanted = matching(list, today(), f);
      const page = wanted.slice(skip, skip + limit).map((i) => affiliateOf(list[i]));
      return { rows: page, total: wanted.length };
    },

    async rosterPeriods(id, starts, to, f, windowDays, skip, limit) {
      const roster = await rosterOf(id, windowDays);
      const ix = rosterIndex(roster, f);
      const first = starts[0];
      const bounds = (days: string[]) => [...starts.map((s) => countBelow(days, s)), countBelow(days, addDays(to, 1))];
      const joins = bounds(ix.startDays);
      const ends = bounds(ix.endDays);
      const changed = [...ix.starts.subarray(joins[0], joins.at(-1)), ...ix.ends.subarray(ends[0], ends.at(-1))].map((i) => roster[i]);
      await movesOf(id, windowDays, changed);
      const summary = (i: number): RosterChangeSummary => {
        const e = roster[i];
        return {
          ref: `${i}`, id: e.affiliate_id, license_number: (e.record ??= affiliateOf(e.line)).license_number, affiliate_role: e.affiliate_role, relationship_type: e.relationship_type,
          effective_from: e.effective_from, effective_to: e.effective_to,
        };
      };
      // A period's list is a run of the ordered positions: counted by its bounds, paged by its places.
      const page = (run: Int32Array) => Array.from(run.subarray(skip, skip + limit), summary);
      const count = (run: Int32Array, moved: (e: RosterEntry) => boolean) => {
        let n = 0;
        for (const i of run) if (moved(roster[i])) n += 1;
        return n;
      };
      return {
        // In force on the day before the first: begun before it, less those closed before it.
        before: countBelow(ix.startDays, first) - countBelow(ix.closeDays, first),
        periods: starts.map((_, p) => {
          const joined = ix.starts.subarray(joins[p], joins[p + 1]);
          const left = ix.ends.subarray(ends[p], ends[p + 1]);
          return {
            joined: joined.length,
            left: left.length,
            transfers_in: count(joined, (e) => !!e.moves?.came_from),
            transfers_out: count(left, (e) => !!e.moves?.went_to),
            joinedPage: page(joined),
            leftPage: page(left),
          };
        }),
      };
    },

    async rosterChangeRecords(id, from, to, windowDays, changes) {
      const roster = await rosterOf(id, windowDays);
      // A ref is a place in the roster: one a write has moved since names another relationship, left out.
      const entries = changes.flatMap((c) => {
        const e = roster[Number(c.ref)];
        return e && e.affiliate_id === c.id && e.relationship_type === c.relationship_type && e.effective_from === c.effective_from ? [e] : [];
      });
      await movesOf(id, windowDays, entries);
      return entries.map((e): RosterChangeRecord => {
        const a = (e.record ??= affiliateOf(e.line));
        return {
          id: a.id, license_number: a.license_number, full_name: a.full_name, business_name: a.business_name, license_type: a.license_type,
          affiliate_role: a.affiliate_role, relationship_type: a.relationship_type, effective_from: a.effective_from, effective_to: e.effective_to,
          came_from: e.effective_from >= from ? (e.moves?.came_from ?? null) : null,
          went_to: e.effective_to !== null && e.effective_to <= to ? (e.moves?.went_to ?? null) : null,
        };
      });
    },

    async typeCounts(states) {
      return states.length ? ((await graph.read(typeCounts, { states })) as never) : [];
    },
    jurisdictions: async () => (await graph.read(files.get('coverage/jurisdictions'))) as unknown as JurisdictionRecord[],
  };
}
