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

/** Indexes of `links` grouped by a key (counting sort): the links of key k are at[from[k] .. from[k + 1]). */
function grouped(links: ParsedLink[], keyOf: (l: ParsedLink) => string) {
  const number = new Map<string, number>();
  const keys = new Int32Array(links.length);
  links.forEach((l, i) => {
    const k = keyOf(l);
    let n = number.get(k);
    if (n === undefined) number.set(k, (n = number.size));
    keys[i] = n;
  });
  const from = new Int32Array(number.size + 1);
  for (const k of keys) from[k + 1]++;
  for (let k = 0; k < number.size; k++) from[k + 1] += from[k];
  const fill = from.slice(0, number.size);
  const at = new Int32Array(links.length);
  keys.forEach((k, i) => (at[fill[k]++] = i));
  return { number, from, at };
}

export function importRoster(links: ParsedLink[]) {
  const fields = links.map((l) => {
    const [type, from, , to] = l.fields.split('\t');
    return { type, from: from || null, to: to || null };
  });
  const byAffiliate = grouped(links, (l) => l.affiliate);
  /** roster-marks.cypher's came and went of the relationship from `supervisor` to `affiliate` with these fields. */
  const marks = (supervisor: string, affiliate: string, type: string, from: string | null, to: string | null) => {
    let [came, went] = [false, false];
    const k = byAffiliate.number.get(affiliate);
    if (k === undefined) return { came, went };
    const [since, until] = [from && shifted(from, -TRANSFER_WINDOW_DAYS), to && shifted(to, TRANSFER_WINDOW_DAYS)];
    for (let i = byAffiliate.from[k]; i < byAffiliate.from[k + 1]; i++) {
      const o = byAffiliate.at[i];
      const p = fields[o];
      if (links[o].supervisor === supervisor || p.type !== type) continue;
      if (from && p.to && p.to <= from && p.to >= since!) came = true;
      if (to && p.from && p.from >= to && p.from <= until!) went = true;
    }
    return { came, went };
  };
  return {
    marks,
    /** roster-days.cypher's build, a supervisor at a time: [supervisor_id, day, joined, left, came, went, live] per supervisor and day with a start or an end. */
    *days(): Generator<[string, string, number, number, number, number, number]> {
      const bySupervisor = grouped(links, (l) => l.supervisor);
      for (const [supervisor, k] of bySupervisor.number) {
        const counts = new Map<string, [number, number, number, number, number]>();
        const add = (day: string, joined: number, left: number, came: number, went: number, live: number) => {
          const c = counts.get(day) ?? [0, 0, 0, 0, 0];
          counts.set(day, [c[0] + joined, c[1] + left, c[2] + came, c[3] + went, c[4] + live]);
        };
        for (let i = bySupervisor.from[k]; i < bySupervisor.from[k + 1]; i++) {
          const o = bySupervisor.at[i];
          const { type, from, to } = fields[o];
          const m = marks(supervisor, links[o].affiliate, type, from, to);
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
