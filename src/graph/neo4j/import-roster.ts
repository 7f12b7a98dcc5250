// The roster marks (cypher/engine/neo4j/roster-marks.cypher) and day counts (roster-days.cypher) of
// an offline load, computed from the relationships the bulk path parsed and written into the
// importer's files, so that a loaded store needs neither pass over its millions of relationships at
// its first start (decision 0046). The same rules as those two files, for a store where every
// relationship is current.
import { TRANSFER_WINDOW_DAYS } from '../../domain/changes.js';
import { Int32Column } from '../../domain/int32-column.js';

/** Strings numbered as first seen, each held once (a load's types, roles, dates and states); null is 0. */
export class Interned {
  private readonly codes = new Map<string, number>();
  readonly values: (string | null)[] = [null];
  code(value: string | null | undefined): number {
    if (!value) return 0;
    let code = this.codes.get(value);
    if (code === undefined) this.codes.set(value, (code = this.values.push(value) - 1));
    return code;
  }
}

const DAY_MS = 86_400_000;
const CAME = 1;
const WENT = 2;

/**
 * The relationships of a load as the bulk path parsed them, numbered in order: their ends as the
 * load's credential numbers and their list fields (type, start, role, end), as typed columns.
 */
export class ParsedLinks {
  readonly supervisors = new Int32Column();
  readonly affiliates = new Int32Column();
  private readonly types = new Int32Column();
  private readonly roles = new Int32Column();
  private readonly starts = new Int32Column();
  private readonly ends = new Int32Column();
  private readonly words = new Interned();
  private readonly dates = new Interned();
  /** Each interned date's day number (days since 1970-01-01). */
  private readonly dayNumbers: number[] = [Number.NaN];

  get length() {
    return this.supervisors.length;
  }

  /** A relationship between credentials `supervisor` and `affiliate`, with its list fields (relationshipListFields); returns its number. */
  add(supervisor: number, affiliate: number, fields: string): number {
    const n = this.supervisors.push(supervisor);
    this.affiliates.push(affiliate);
    for (const column of [this.types, this.roles, this.starts, this.ends]) column.push(0);
    this.set(n, fields);
    return n;
  }

  /** Relationship `n`'s list fields again (a later row's values win). */
  set(n: number, fields: string) {
    const [type, from, role, to] = fields.split('\t');
    this.types.array[n] = this.words.code(type);
    this.roles.array[n] = this.words.code(role);
    this.starts.array[n] = this.date(from);
    this.ends.array[n] = this.date(to);
  }

  private date(value: string | undefined) {
    const code = this.dates.code(value);
    if (code === this.dayNumbers.length) this.dayNumbers.push(Date.parse(`${value}T00:00:00Z`) / DAY_MS);
    return code;
  }

  /** Relationship `n`'s list fields (null where empty). */
  fields(n: number) {
    const [w, d] = [this.words.values, this.dates.values];
    return { type: w[this.types.array[n]]!, from: d[this.starts.array[n]], role: w[this.roles.array[n]], to: d[this.ends.array[n]] };
  }

  /** The date of interned date `code`. */
  dateOf(code: number) {
    return this.dates.values[code]!;
  }

  /**
   * roster-marks.cypher's came and went of every relationship (CAME and WENT bits, by number):
   * another supervisor's relationship of the same type to the same affiliate ended on its start or
   * up to the window's days before (came), or started on its end or up to the window's days after
   * (went). Only affiliates with more than one relationship are compared.
   */
  marks(count: number): Uint8Array {
    const { from, at } = grouped(this.affiliates, count);
    const marks = new Uint8Array(this.length);
    const [supervisors, types, starts, ends, day] = [this.supervisors.array, this.types.array, this.starts.array, this.ends.array, this.dayNumbers];
    for (let k = 0; k < count; k++) {
      if (from[k + 1] - from[k] < 2) continue;
      for (let i = from[k]; i < from[k + 1]; i++) {
        const a = at[i];
        const [start, end] = [day[starts[a]], day[ends[a]]];
        for (let j = from[k]; j < from[k + 1]; j++) {
          const b = at[j];
          if (supervisors[b] === supervisors[a] || types[b] !== types[a]) continue;
          // NaN (no date) compares false.
          const [otherStart, otherEnd] = [day[starts[b]], day[ends[b]]];
          if (otherEnd <= start && otherEnd >= start - TRANSFER_WINDOW_DAYS) marks[a] |= CAME;
          if (otherStart >= end && otherStart <= end + TRANSFER_WINDOW_DAYS) marks[a] |= WENT;
        }
      }
    }
    return marks;
  }

  /**
   * roster-days.cypher's build, a supervisor at a time: `row(supervisor, date, joined, left, came,
   * went, live)` per supervisor and day with a start or an end (`date`: an interned date, dateOf).
   */
  days(count: number, marks: Uint8Array, row: (supervisor: number, date: number, joined: number, left: number, came: number, went: number, live: number) => void) {
    const { from, at } = grouped(this.supervisors, count);
    const [starts, ends, day] = [this.starts.array, this.ends.array, this.dayNumbers];
    const counts = new Map<number, number[]>();
    const add = (date: number, joined: number, left: number, came: number, went: number, live: number) => {
      const c = counts.get(date);
      if (c) [c[0], c[1], c[2], c[3], c[4]] = [c[0] + joined, c[1] + left, c[2] + came, c[3] + went, c[4] + live];
      else counts.set(date, [joined, left, came, went, live]);
    };
    for (let k = 0; k < count; k++) {
      if (from[k] === from[k + 1]) continue;
      counts.clear();
      for (let i = from[k]; i < from[k + 1]; i++) {
        const l = at[i];
        const [start, end, m] = [starts[l], ends[l], marks[l]];
        const later = day[ends[l]] > day[starts[l]];
        if (start) add(start, 1, 0, m & CAME ? 1 : 0, 0, !end || later ? 1 : 0);
        if (end) add(end, 0, 1, 0, m & WENT ? 1 : 0, start && later ? -1 : 0);
      }
      for (const [date, c] of counts) row(k, date, c[0], c[1], c[2], c[3], c[4]);
    }
  }
}

/** Whether marks (ParsedLinks.marks) say the relationship came or went. */
export const came = (marks: number) => (marks & CAME) !== 0;
export const went = (marks: number) => (marks & WENT) !== 0;

/**
 * Relationship numbers grouped by a credential number (a counting sort): the relationships of
 * credential k are at[from[k] .. from[k + 1]).
 */
function grouped(ends: Int32Column, count: number) {
  const keys = ends.array.subarray(0, ends.length);
  const from = new Int32Array(count + 1);
  for (const k of keys) from[k + 1]++;
  for (let k = 0; k < count; k++) from[k + 1] += from[k];
  const fill = from.slice(0, count);
  const at = new Int32Array(keys.length);
  keys.forEach((k, i) => (at[fill[k]++] = i));
  return { from, at };
}
