// The roster marks (cypher/engine/neo4j/roster-marks.cypher) and day counts (roster-days.cypher) of
// an offline load, computed from the relationships the bulk path parsed and written into the
// importer's files, so that a loaded store needs neither pass over its millions of relationships at
// its first start (decision 0046). The same rules as those two files, for a store where every
// relationship is current.
import { TRANSFER_WINDOW_DAYS } from '../../domain/changes.js';

/** A relationship as the bulk path parsed it: its ends' ids and its list fields (type, start, role, end; tab-joined). */
export interface ParsedLink {
  supervisor: string;
  affiliate: string;
  fields: string;
}

const DAY_MS = 86_400_000;
/** A YYYY-MM-DD date `days` days later (earlier when negative), as Cypher's date arithmetic gives it. */
const shifted = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * Indexes of `links` grouped by a credential's number (a counting sort; typed arrays, since a
 * national load holds millions): the links of number k are at[from[k] .. from[k + 1]).
 */
function grouped(links: ParsedLink[], numberOf: (l: ParsedLink) => number, count: number) {
  const keys = Int32Array.from(links, numberOf);
  const from = new Int32Array(count + 1);
  for (const k of keys) from[k + 1]++;
  for (let k = 0; k < count; k++) from[k + 1] += from[k];
  const fill = from.slice(0, count);
  const at = new Int32Array(links.length);
  keys.forEach((k, i) => (at[fill[k]++] = i));
  return { from, at };
}

/** A link's type, start and end, read from its list fields when asked (a copy of each would not fit a national load's heap). */
function fieldsOf(l: ParsedLink) {
  const [type, from, , to] = l.fields.split('\t');
  return { type, from: from || null, to: to || null };
}

/**
 * The marks and day counts of `links`, whose ends are credentials numbered 0..count - 1 by
 * `numberOf` (the load's own numbering: no map of millions of ids is made for it).
 */
export function importRoster(links: ParsedLink[], numberOf: (id: string) => number, count: number) {
  const byAffiliate = grouped(links, (l) => numberOf(l.affiliate), count);
  /** roster-marks.cypher's came and went of the relationship from `supervisor` to `affiliate` with these fields. */
  const marks = (supervisor: string, affiliate: string, type: string, from: string | null, to: string | null) => {
    let [came, went] = [false, false];
    const k = numberOf(affiliate);
    // Most affiliates have no other supervisor: the window's days are worked out only for one that does.
    for (let i = byAffiliate.from[k]; i < byAffiliate.from[k + 1]; i++) {
      const other = links[byAffiliate.at[i]];
      if (other.supervisor === supervisor) continue;
      const p = fieldsOf(other);
      if (p.type !== type) continue;
      if (from && p.to && p.to <= from && p.to >= shifted(from, -TRANSFER_WINDOW_DAYS)) came = true;
      if (to && p.from && p.from >= to && p.from <= shifted(to, TRANSFER_WINDOW_DAYS)) went = true;
    }
    return { came, went };
  };
  return {
    marks,
    /** roster-days.cypher's build, a supervisor at a time: [supervisor_id, day, joined, left, came, went, live] per supervisor and day with a start or an end. */
    *days(): Generator<[string, string, number, number, number, number, number]> {
      const bySupervisor = grouped(links, (l) => numberOf(l.supervisor), count);
      for (let k = 0; k < count; k++) {
        if (bySupervisor.from[k] === bySupervisor.from[k + 1]) continue;
        const supervisor = links[bySupervisor.at[bySupervisor.from[k]]].supervisor;
        const counts = new Map<string, [number, number, number, number, number]>();
        const add = (day: string, joined: number, left: number, came: number, went: number, live: number) => {
          const c = counts.get(day) ?? [0, 0, 0, 0, 0];
          counts.set(day, [c[0] + joined, c[1] + left, c[2] + came, c[3] + went, c[4] + live]);
        };
        for (let i = bySupervisor.from[k]; i < bySupervisor.from[k + 1]; i++) {
          const l = links[bySupervisor.at[i]];
          const { type, from, to } = fieldsOf(l);
          const m = marks(supervisor, l.affiliate, type, from, to);
          if (from) add(from, 1, 0, m.came ? 1 : 0, 0, !to || to > from ? 1 : 0);
          if (to) add(to, 0, 1, 0, m.went ? 1 : 0, from && to > from ? -1 : 0);
        }
        for (const [day, c] of counts) yield [supervisor, day, ...c];
      }
    },
  };
}

/** roster-marks.cypher's list_key: null where the licence number, the type or the start is. */
export function listKey(licenseNumber: string | null, affiliate: string, type: string | null, from: string | null, role: string | null): string | null {
  if (licenseNumber === null || type === null || from === null) return null;
  return `${licenseNumber}\u0000${affiliate}\u0000${type}\u0000${from}\u0000${role ?? '\uffff'}`;
}
