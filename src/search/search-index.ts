// The name-search index of both engines (docs/decisions/0029): a substring filter on a name is
// text retrieval, answered here rather than by a graph traversal. The index holds,
// per state and in the documented result order, each credential's id, status and type codes,
// licence number, and for every text field a dictionary of the distinct words in it with the
// rows each word occurs in. Search terms hold no white space, so a term is a substring of a field
// exactly when it is a substring of one of the field's words: a term is looked up in the
// dictionary (a few hundred kB of text per field, scanned with indexOf) rather than in every row.
import fs from 'node:fs';
import v8 from 'node:v8';
import zlib from 'node:zlib';
import { readBulkFile, splitBulkFileByFirstField } from '../graph/bulk-file.js';
import { SEARCH_BROKER_COLUMNS, SEARCH_INDEX_COLUMNS } from '../graph/search-source-port.js';
import type { SearchFilters } from '../domain/search-filters.js';
import type { NameSearch } from './search-port.js';
import { Int32Column } from '../domain/int32-column.js';

export { SEARCH_BROKER_COLUMNS, SEARCH_INDEX_COLUMNS };

export type SearchIndexRow = (string | null)[];

const FIELDS = ['name', 'first', 'last', 'business', 'city'] as const;
type Field = (typeof FIELDS)[number];

/** A field's words, joined by line breaks, and the rows each word occurs in (CSR lists). */
interface FieldIndex {
  text: string;
  /** Offset in `text` of each word; ascending. */
  starts: Int32Array;
  /** Rows of word w: postings[postStart[w] .. postStart[w + 1]), ascending. */
  postStart: Int32Array;
  postings: Int32Array;
}

/**
 * The brokerage filter's data of a state: the distinct names its brokerage rows match on (as a
 * FieldIndex's words: each after a line break; terms hold no line break) and, per name, its
 * links: the row and the days it is in force, [from, to).
 */
interface BrokerIndex {
  text: string;
  starts: Int32Array;
  /** Links of name w: linkStart[w] .. linkStart[w + 1]. */
  linkStart: Int32Array;
  linkRow: Int32Array;
  /** Days since 1970-01-01; ALWAYS_FROM and OPEN_TO where the row has no date. */
  linkFrom: Int32Array;
  linkTo: Int32Array;
}

const ALWAYS_FROM = -(2 ** 31);
const OPEN_TO = 2 ** 31 - 1;
const DAY_MS = 86_400_000;

/** The value of the decimal digits date[from..to), or NaN where one is not a digit. */
function digits(date: string, from: number, to: number): number {
  let v = 0;
  for (let i = from; i < to; i++) {
    const d = date.charCodeAt(i) - 48;
    if (!(d >= 0 && d <= 9)) return Number.NaN;
    v = v * 10 + d;
  }
  return v;
}

/** Days since 1970-01-01 of a YYYY-MM-DD date (a day past its month's end runs on, as Date.UTC counts it). */
function dayOf(date: string): number {
  const day = date.length === 10 && date[4] === '-' && date[7] === '-' ? Date.UTC(digits(date, 0, 4), digits(date, 5, 7) - 1, digits(date, 8, 10)) / DAY_MS : Number.NaN;
  if (!Number.isInteger(day)) throw new Error(`not a date: ${date}`);
  return day;
}

interface StateIndex {
  n: number;
  /** 16 bytes per row: the credential id as binary UUID. */
  ids: Uint8Array;
  status: Uint8Array;
  type: Uint8Array;
  /** Licence numbers in row order, each after a line break, for the prefix filter. */
  numbers: { text: string; starts: Int32Array };
  /**
   * Sort keys in row order, as `numbers`, without the licence number they end with (storedKey):
   * where a patched row goes (placesOf).
   */
  keys: { text: string; starts: Int32Array };
  fields: Record<Field, FieldIndex>;
  brokers: BrokerIndex;
}

/** The index as plain data: built in a worker thread and handed over (typed arrays transferred). */
export interface SearchIndexParts {
  states: [string, StateIndex][];
  /** Status and type values and their codes (0: none). */
  codes: [string, number][];
}

/**
 * A state's words, numbered as first seen in any field: a row's value is split and each word
 * looked up once, and the fields it goes into (the name field takes the full, first, last and
 * business names) number it from there without a string lookup each.
 */
class Words {
  private readonly ids = new Map<string, number>();
  readonly words: string[] = [];
  /** The ids of the row's words so far, value after value (add() returns where each value's words end). */
  readonly row = new Int32Column();

  /** Adds the words of `value` (split at spaces, empty words left out) to the row's; returns where they end in `row`. */
  add(value: string | null): number {
    if (value) {
      for (let at = 0; at < value.length; ) {
        let end = value.indexOf(' ', at);
        if (end === -1) end = value.length;
        if (end > at) this.row.push(this.idOf(at === 0 && end === value.length ? value : value.slice(at, end)));
        at = end + 1;
      }
    }
    return this.row.length;
  }

  private idOf(word: string): number {
    // A first or last name is most often a word of the full name just split.
    for (let i = 0; i < Math.min(this.row.length, 16); i++) if (this.words[this.row.array[i]] === word) return this.row.array[i];
    let id = this.ids.get(word);
    if (id === undefined) this.ids.set(word, (id = this.words.push(word) - 1));
    return id;
  }
}

/** Builds one field's dictionary from the words of each row; rows are numbered as they arrive. */
class FieldBuilder {
  /** The field's number of each of the state's words (Words), plus one; 0 where it holds none. */
  private local = new Int32Array(1 << 12);
  private readonly words: string[] = [];
  private readonly rowWords = new Int32Column();
  private readonly rowEnds = new Int32Column();

  /** The row's words: those of `words.row` in [from, to), each once. */
  add(all: Words, from: number, to: number) {
    const start = this.rowWords.length;
    for (let i = from; i < to; i++) {
      const word = all.row.array[i];
      if (word >= this.local.length) {
        const grown = new Int32Array(Math.max(this.local.length * 2, word + 1));
        grown.set(this.local);
        this.local = grown;
      }
      let id = this.local[word] - 1;
      if (id === -1) this.local[word] = (id = this.words.push(all.words[word]) - 1) + 1;
      else if (this.has(start, id)) continue;
      this.rowWords.push(id);
    }
    this.rowEnds.push(this.rowWords.length);
  }

  private has(start: number, id: number) {
    for (let i = start; i < this.rowWords.length; i++) if (this.rowWords.array[i] === id) return true;
    return false;
  }

  /** The field with rows renumbered: `order[i]` is the arrival number of row i. */
  build(order: Int32Array): FieldIndex {
    const { words } = this;
    const [rowWords, rowEnds, used] = [this.rowWords.array, this.rowEnds.array, this.rowWords.length];
    const postStart = new Int32Array(words.length + 1);
    for (let i = 0; i < used; i++) postStart[rowWords[i] + 1] += 1;
    for (let w = 0; w < words.length; w++) postStart[w + 1] += postStart[w];
    const fill = postStart.slice(0, words.length);
    const postings = new Int32Array(used);
    // Rows visited in their new order: each word's rows come out ascending.
    for (let row = 0; row < order.length; row++) {
      const old = order[row];
      for (let i = old === 0 ? 0 : rowEnds[old - 1]; i < rowEnds[old]; i++) postings[fill[rowWords[i]]++] = row;
    }
    return { ...dictionary(words), postStart, postings };
  }
}

/** Words as a dictionary's text (each after a line break) and each one's offset in it. */
function dictionary(words: string[]): { text: string; starts: Int32Array } {
  const starts = new Int32Array(words.length);
  let offset = 1;
  words.forEach((w, i) => {
    starts[i] = offset;
    offset += w.length + 1;
  });
  return { text: `\n${words.join('\n')}\n`, starts };
}

/** Index of the last start <= offset. */
function wordAt(starts: Int32Array, offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The words of a field that contain `term` (or start with it, with `prefix`), ascending. */
function matchingWords(f: Pick<FieldIndex, 'text' | 'starts'>, term: string, prefix = false): number[] {
  const out: number[] = [];
  const needle = prefix ? `\n${term}` : term;
  let at = f.text.indexOf(needle);
  while (at !== -1) {
    const w = wordAt(f.starts, prefix ? at + 1 : at);
    out.push(w);
    const next = w + 1 < f.starts.length ? f.starts[w + 1] : f.text.length;
    at = f.text.indexOf(needle, prefix ? next - 1 : next);
  }
  return out;
}

/**
 * The rows holding any of the words, ascending and without repeats. `marks`: zeroed scratch space
 * of at least n + 3 bytes, left zeroed. Many rows are marked and read back four marks at a time:
 * a first-three-letters term in FL unions thousands of words' rows, and the union was a third of
 * a search request's main-thread CPU.
 */
function rowsOf(f: FieldIndex, wordIds: number[], n: number, marks: Uint8Array): Int32Array {
  let total = 0;
  for (const w of wordIds) total += f.postStart[w + 1] - f.postStart[w];
  if (wordIds.length === 1) return f.postings.subarray(f.postStart[wordIds[0]], f.postStart[wordIds[0] + 1]);
  // Few rows: gather and sort. Beyond n/256 marking is cheaper (0007).
  if (total <= n >> 8) {
    const all = new Int32Array(total);
    let j = 0;
    for (const w of wordIds) {
      all.set(f.postings.subarray(f.postStart[w], f.postStart[w + 1]), j);
      j += f.postStart[w + 1] - f.postStart[w];
    }
    return ascending(all, n, marks);
  }
  for (const w of wordIds) for (let i = f.postStart[w]; i < f.postStart[w + 1]; i++) marks[f.postings[i]] = 1;
  return marked(total, n, marks);
}

/** Rows (any order, repeats allowed) ascending and without repeats; `marks` as in rowsOf. */
function ascending(rows: Int32Array, n: number, marks: Uint8Array): Int32Array {
  if (rows.length <= n >> 8) {
    rows.sort();
    let k = 0;
    for (let i = 0; i < rows.length; i++) if (i === 0 || rows[i] !== rows[i - 1]) rows[k++] = rows[i];
    return rows.subarray(0, k);
  }
  for (let i = 0; i < rows.length; i++) marks[rows[i]] = 1;
  return marked(rows.length, n, marks);
}

/** The marked rows ascending (at most `total`), the marks cleared. */
function marked(total: number, n: number, marks: Uint8Array): Int32Array {
  const words = new Uint32Array(marks.buffer, marks.byteOffset, (n + 3) >> 2);
  const out = new Int32Array(total);
  let k = 0;
  for (let w = 0; w < words.length; w++) {
    if (words[w] === 0) continue;
    for (let r = w << 2, end = Math.min(r + 4, n); r < end; r++) if (marks[r]) out[k++] = r;
    words[w] = 0;
  }
  return out.subarray(0, k);
}

/** The rows with a link in force on `day` to a name containing `term`, ascending. */
function brokeredRows(b: BrokerIndex, term: string, day: number, n: number, marks: Uint8Array): Int32Array {
  const names = matchingWords(b, term);
  let total = 0;
  for (const w of names) total += b.linkStart[w + 1] - b.linkStart[w];
  const rows = new Int32Array(total);
  let k = 0;
  for (const w of names) {
    for (let l = b.linkStart[w]; l < b.linkStart[w + 1]; l++) if (b.linkFrom[l] <= day && day < b.linkTo[l]) rows[k++] = b.linkRow[l];
  }
  return ascending(rows.subarray(0, k), n, marks);
}

function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    if (a[i] < b[j]) i++;
    else if (a[i] > b[j]) j++;
    else {
      out[k++] = a[i];
      i++;
      j++;
    }
  }
  return out.subarray(0, k);
}

const uuidOf = (ids: Uint8Array, row: number) => {
  const x = Buffer.from(ids.buffer, ids.byteOffset + row * 16, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
};

export interface SearchIndex extends NameSearch {
  /** The data it was made from, to keep on disk (without an overlay's rows). */
  readonly parts: SearchIndexParts;
  /** The rows it holds, an overlay's counted. */
  readonly rows: number;
}

interface StateBuilder {
  /** Binary ids, 16 bytes a row, in arrival order. */
  ids: Uint8Array;
  /** Arrival numbers by id, open addressing (slotOf); -1 where empty. */
  slots: Int32Array;
  sortKeys: string[];
  status: number[];
  type: number[];
  numbers: string[];
  words: Words;
  fields: Record<Field, FieldBuilder>;
  /** Brokerage rows: arrival number, days in force, interned name. */
  links: { row: Int32Column; from: Int32Column; to: Int32Column; name: Int32Column };
  names: Map<string, number>;
  /** Brokerage rows that came before their credential's row. */
  early: SearchIndexRow[];
}

/** Hex digits' values by character code; -1 for any other character. */
const HEX = Int8Array.from({ length: 128 }, (_, c) => '0123456789abcdef'.indexOf(String.fromCharCode(c).toLowerCase()));

/** Writes a UUID (32 hex digits, dashes anywhere) as 16 bytes at `to[at]`; false if `id` is not one. */
function writeId(id: string, to: Uint8Array, at: number): boolean {
  let k = 0;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c === 45) continue;
    const v = c < 128 ? HEX[c] : -1;
    if (v === -1 || k === 32) return false;
    if (k & 1) to[at + (k >> 1)] |= v;
    else to[at + (k >> 1)] = v << 4;
    k++;
  }
  return k === 32;
}

const word32 = (key: Uint8Array, at: number) => (key[at] << 24) | (key[at + 1] << 16) | (key[at + 2] << 8) | key[at + 3];

/** The slot of the id at `key[at]` in the state's table: the one holding it, or the empty one it would take. */
function slotOf(b: StateBuilder, key: Uint8Array, at: number): number {
  const mask = b.slots.length - 1;
  // Every byte counts: ids that differ in one part only (sequential ones) spread too.
  let hash = word32(key, at);
  for (let w = 4; w < 16; w += 4) hash = Math.imul(hash ^ (hash >>> 15), 0x85ebca6b) ^ word32(key, at + w);
  hash = Math.imul(hash ^ (hash >>> 13), 0x9e3779b1);
  for (let slot = (hash ^ (hash >>> 15)) & mask; ; slot = (slot + 1) & mask) {
    const row = b.slots[slot];
    if (row === -1) return slot;
    let k = 0;
    while (k < 16 && b.ids[row * 16 + k] === key[at + k]) k++;
    if (k === 16) return slot;
  }
}

/** Adds the id of the state's next row (`row`) to its ids and its table; one that came before now names this row. */
function addId(b: StateBuilder, id: string, row: number) {
  if ((row + 1) * 16 > b.ids.length) {
    const grown = new Uint8Array(b.ids.length * 2);
    grown.set(b.ids);
    b.ids = grown;
  }
  if (!writeId(id, b.ids, row * 16)) throw new Error(`a search row's id is not a UUID: ${id}`);
  // At most half full: a probe ends after a slot or two.
  if ((row + 1) * 2 > b.slots.length) {
    const old = b.slots;
    b.slots = new Int32Array(old.length * 2).fill(-1);
    for (const r of old) if (r !== -1) b.slots[slotOf(b, b.ids, r * 16)] = r;
  }
  b.slots[slotOf(b, b.ids, row * 16)] = row;
}

const scratchId = new Uint8Array(16);

/** The arrival number of the row with credential id `id`; -1 if none has come (or can: not a UUID). */
function arrivalOf(b: StateBuilder, id: string): number {
  return writeId(id, scratchId, 0) ? b.slots[slotOf(b, scratchId, 0)] : -1;
}

/** A state's brokerage data with rows renumbered (`rank[arrival]`: the row in result order). */
function brokersOf(b: StateBuilder, rank: Int32Array): BrokerIndex {
  const names = [...b.names.keys()];
  const { row, from, to, name } = b.links;
  const linkStart = new Int32Array(names.length + 1);
  for (let i = 0; i < name.length; i++) linkStart[name.array[i] + 1] += 1;
  for (let w = 0; w < names.length; w++) linkStart[w + 1] += linkStart[w];
  const fill = linkStart.slice(0, names.length);
  const count = row.length;
  const linkRow = new Int32Array(count);
  const linkFrom = new Int32Array(count);
  const linkTo = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const at = fill[name.array[i]]++;
    linkRow[at] = rank[row.array[i]];
    linkFrom[at] = from.array[i];
    linkTo[at] = to.array[i];
  }
  return { ...dictionary(names), linkStart, linkRow, linkFrom, linkTo };
}

/** Adds a brokerage row (SEARCH_BROKER_COLUMNS) to its state; false when its credential has not come yet. */
function addLink(b: StateBuilder, row: SearchIndexRow): boolean {
  const [, id, from, to, names] = row;
  const at = arrivalOf(b, id!);
  if (at === -1) return false;
  if (!names) return true;
  let name = b.names.get(names);
  if (name === undefined) b.names.set(names, (name = b.names.size));
  b.links.row.push(at);
  b.links.from.push(from ? dayOf(from) : ALWAYS_FROM);
  b.links.to.push(to ? dayOf(to) : OPEN_TO);
  b.links.name.push(name);
  return true;
}

/** Sorts `order[lo..hi)` by `keys` from code unit `depth` on, where they agree before it; equal keys keep their order. */
function insertionSort(keys: string[], order: Int32Array, lo: number, hi: number, depth: number) {
  for (let i = lo + 1; i < hi; i++) {
    const v = order[i];
    const kv = keys[v];
    let j = i - 1;
    for (; j >= lo; j--) {
      const u = order[j];
      const ku = keys[u];
      const m = Math.min(ku.length, kv.length);
      let d = depth;
      while (d < m && ku.charCodeAt(d) === kv.charCodeAt(d)) d++;
      if ((d < m ? ku.charCodeAt(d) - kv.charCodeAt(d) : ku.length - kv.length || u - v) <= 0) break;
      order[j + 1] = u;
    }
    order[j + 1] = v;
  }
}

/**
 * Arrival numbers in the documented order: by sort key, compared by UTF-16 code unit (the graph
 * compares by code point: the two differ only beyond the Basic Multilingual Plane). sort_key ends
 * with the licence number, so it is unique within a state and the id never breaks a tie.
 * A radix sort on code units: V8 compares two strings in its runtime, and a comparison sort of a
 * state's keys was a sixth of its build.
 */
function resultOrder(keys: string[]): Int32Array {
  const n = keys.length;
  const order = Int32Array.from({ length: n }, (_, i) => i);
  const scratch = new Int32Array(n);
  /** Each row's bucket at the depth being sorted: 0 for a key that ends before it, code unit + 1, 257 for any beyond Latin-1. */
  const buckets = new Uint16Array(n);
  // Keys that agree up to a code unit beyond Latin-1 (rare): compared whole.
  const beyondLatin1 = (lo: number, hi: number) => order.subarray(lo, hi).sort((x, y) => (keys[x] < keys[y] ? -1 : keys[x] > keys[y] ? 1 : x - y));
  // Ranges to sort, each as lo, hi and the depth its keys agree up to.
  const stack = [0, n, 0];
  while (stack.length) {
    const depth = stack.pop()!;
    const hi = stack.pop()!;
    const lo = stack.pop()!;
    if (hi - lo <= 32) {
      insertionSort(keys, order, lo, hi, depth);
      continue;
    }
    const counts = new Int32Array(259);
    for (let i = lo; i < hi; i++) {
      const k = keys[order[i]];
      const b = depth < k.length ? Math.min(k.charCodeAt(depth) + 1, 257) : 0;
      buckets[i] = b;
      counts[b + 1]++;
    }
    for (let b = 0; b < 258; b++) counts[b + 1] += counts[b];
    const first = buckets[lo];
    if (counts[first + 1] - counts[first] === hi - lo) {
      // One bucket: keys that all end here (equal), or one code unit (the next one decides).
      if (first === 257) beyondLatin1(lo, hi);
      else if (first !== 0) stack.push(lo, hi, depth + 1);
      continue;
    }
    const next = counts.slice(0, 258);
    for (let i = lo; i < hi; i++) scratch[lo + next[buckets[i]]++] = order[i];
    order.set(scratch.subarray(lo, hi), lo);
    for (let b = 1; b < 258; b++) {
      const [from, to] = [lo + counts[b], lo + counts[b + 1]];
      if (to - from < 2) continue;
      if (b === 257) beyondLatin1(from, to);
      else stack.push(from, to, depth + 1);
    }
  }
  return order;
}

/**
 * Builds the index from rows (SEARCH_INDEX_COLUMNS) in any order; each state's rows are put in
 * result order (sort_key, then id). `codes`: the status and type codes to go on from, when the
 * index is built in parts (buildSearchIndexFromFile).
 */
export async function buildSearchIndexParts(rows: AsyncIterable<SearchIndexRow[]>, codes = new Map<string, number>()): Promise<SearchIndexParts> {
  const builders = new Map<string, StateBuilder>();
  // Status and type values share one code space.
  const code = (v: string | null) => {
    if (v === null) return 0;
    let c = codes.get(v);
    if (c === undefined) codes.set(v, (c = codes.size + 1));
    if (c > 255) throw new Error('more than 255 distinct status and type values');
    return c;
  };
  const builderOf = (state: string) => {
    let b = builders.get(state);
    if (!b) {
      b = {
        ids: new Uint8Array(1 << 16),
        slots: new Int32Array(1 << 12).fill(-1),
        sortKeys: [],
        status: [],
        type: [],
        numbers: [],
        words: new Words(),
        fields: Object.fromEntries(FIELDS.map((f) => [f, new FieldBuilder()])) as Record<Field, FieldBuilder>,
        links: { row: new Int32Column(), from: new Int32Column(), to: new Int32Column(), name: new Int32Column() },
        names: new Map(),
        early: [],
      };
      builders.set(state, b);
    }
    return b;
  };
  for await (const chunk of rows) {
    for (const row of chunk) {
      if (row.length === SEARCH_BROKER_COLUMNS.length) {
        const b = builderOf(row[0]!);
        if (!addLink(b, row)) b.early.push(row);
        continue;
      }
      if (row.length !== SEARCH_INDEX_COLUMNS.length) throw new Error(`a search index row has ${row.length} fields, not ${SEARCH_INDEX_COLUMNS.length} or ${SEARCH_BROKER_COLUMNS.length}`);
      const [state, id, sortKey, number, status, type, full, first, last, business, city] = row;
      const b = builderOf(state!);
      addId(b, id!, b.sortKeys.length);
      b.sortKeys.push(sortKey ?? '');
      b.status.push(code(status));
      b.type.push(code(type));
      b.numbers.push(number ?? '');
      const { words, fields } = b;
      words.row.length = 0;
      const [fullEnd, firstEnd, lastEnd, businessEnd, cityEnd] = [words.add(full), words.add(first), words.add(last), words.add(business), words.add(city)];
      fields.name.add(words, 0, businessEnd);
      fields.first.add(words, fullEnd, firstEnd);
      fields.last.add(words, firstEnd, lastEnd);
      fields.business.add(words, lastEnd, businessEnd);
      fields.city.add(words, businessEnd, cityEnd);
    }
  }
  const states: [string, StateIndex][] = [];
  for (const [state, b] of builders) {
    // A brokerage row of a credential the graph does not show has nothing to filter.
    for (const row of b.early) addLink(b, row);
    const n = b.sortKeys.length;
    const keys = b.sortKeys;
    const order = resultOrder(keys);
    const ids = new Uint8Array(n * 16);
    const status = new Uint8Array(n);
    const type = new Uint8Array(n);
    const rank = new Int32Array(n);
    for (let row = 0; row < n; row++) {
      const old = order[row];
      for (let k = 0; k < 16; k++) ids[row * 16 + k] = b.ids[old * 16 + k];
      status[row] = b.status[old];
      type[row] = b.type[old];
      rank[old] = row;
    }
    states.push([
      state,
      {
        n,
        ids,
        status,
        type,
        numbers: dictionary(Array.from(order, (old) => b.numbers[old])),
        keys: dictionary(Array.from(order, (old) => storedKey(keys[old], b.numbers[old]))),
        fields: Object.fromEntries(FIELDS.map((f) => [f, b.fields[f].build(order)])) as Record<Field, FieldIndex>,
        brokers: brokersOf(b, rank),
      },
    ]);
    builders.delete(state);
  }
  return { states, codes: [...codes] };
}

/**
 * An export file (SEARCH_INDEX_COLUMNS rows, states in any order) split into a file per state in
 * `dir`, largest first: a state's builders are then held alone rather than those of all (0007),
 * and states can be built apart (buildSearchIndexFromParts).
 */
export async function splitExport(file: string, dir: string): Promise<{ state: string; file: string; bytes: number }[]> {
  // The state leads the row, and a state code is never quoted.
  const parts = await splitBulkFileByFirstField(file, dir);
  return [...parts].map(([state, part]) => ({ state, file: part, bytes: fs.statSync(part).size })).sort((x, y) => y.bytes - x.bytes);
}

/** The index of the states in `files` (splitExport's, a state a file), a state at a time, its status and type codes going on from `from`. */
export async function buildSearchIndexFromParts(files: string[], from: SearchIndexParts['codes'] = []): Promise<SearchIndexParts> {
  const codes = new Map(from);
  const states: SearchIndexParts['states'] = [];
  for (const part of files) states.push(...(await buildSearchIndexParts(readBulkFile(part), codes)).states);
  return { states, codes: [...codes] };
}

/**
 * Parts built apart from the same codes, joined: each one's status and type codes beyond those
 * are renumbered into the first one's code space.
 */
export function joinParts(all: SearchIndexParts[]): SearchIndexParts {
  const codes = new Map(all[0]?.codes ?? []);
  const states: SearchIndexParts['states'] = [...(all[0]?.states ?? [])];
  for (const parts of all.slice(1)) {
    const to = new Uint8Array(256);
    for (const [value, c] of parts.codes) {
      let mine = codes.get(value);
      if (mine === undefined) codes.set(value, (mine = codes.size + 1));
      if (mine > 255) throw new Error('more than 255 distinct status and type values');
      to[c] = mine;
    }
    for (const [state, index] of parts.states) {
      for (const values of [index.status, index.type]) for (let i = 0; i < values.length; i++) values[i] = to[values[i]];
      states.push([state, index]);
    }
  }
  return { states, codes: [...codes] };
}

/** Builds the index from an export file (SEARCH_INDEX_COLUMNS rows, states in any order) a state at a time (splitExport). */
export async function buildSearchIndexFromFile(file: string, from: SearchIndexParts['codes'] = []): Promise<SearchIndexParts> {
  // Named after the export, so that the start-up sweep of exports a killed process left behind
  // takes these files too.
  const dir = fs.mkdtempSync(`${file}-parts-`);
  try {
    return await buildSearchIndexFromParts((await splitExport(file, dir)).map((p) => p.file), from);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Word `w` of a dictionary (`dictionary()`). */
const wordOf = (d: { text: string; starts: Int32Array }, w: number) => d.text.slice(d.starts[w], (w + 1 < d.starts.length ? d.starts[w + 1] : d.text.length) - 1);

/**
 * A sort key as the index keeps it: the names before `\u0001` alone when it ends with `\u0001` and
 * the row's licence number, as every key the import writes does (a tenth of the index at 3M);
 * else whole, marked by a `\u0001` after it (the names never hold one).
 */
function storedKey(key: string, number: string): string {
  const names = key.length - number.length - 1;
  return key.endsWith(number) && key.indexOf('\u0001') === names ? key.slice(0, names) : `${key}\u0001`;
}
/** Row r's sort key (storedKey). */
function keyOf(s: Pick<StateIndex, 'keys' | 'numbers'>, r: number): string {
  const kept = wordOf(s.keys, r);
  return kept.includes('\u0001') ? kept.slice(0, -1) : `${kept}\u0001${wordOf(s.numbers, r)}`;
}

/**
 * Two dictionaries' words as one, those with no entry left dropped: `count(w)` gives the entries
 * word w of the merged space keeps (a's words first, then b's not in a). Returns the merged
 * dictionary, the merged word of each of b's words, and each kept word's place in the merged space.
 */
function mergeWords(a: { text: string; starts: Int32Array }, b: { text: string; starts: Int32Array }) {
  const aWords = a.starts.length;
  const ids = new Map<string, number>();
  for (let w = 0; w < aWords; w++) ids.set(wordOf(a, w), w);
  const bTo = new Int32Array(b.starts.length);
  const added: string[] = [];
  for (let w = 0; w < b.starts.length; w++) {
    const word = wordOf(b, w);
    const at = ids.get(word);
    bTo[w] = at ?? aWords + added.length;
    if (at === undefined) added.push(word);
  }
  const word = (w: number) => (w < aWords ? wordOf(a, w) : added[w - aWords]);
  return { size: aWords + added.length, bTo, word };
}

/** A's rows (`aRow`: each one's new row, -1 where it goes) and b's (`bRow`) under one field's words. */
function mergeField(a: FieldIndex, aRow: Int32Array, b: FieldIndex, bRow: Int32Array): FieldIndex {
  const { size, bTo, word } = mergeWords(a, b);
  const fromB = new Int32Array(size).fill(-1);
  bTo.forEach((m, w) => (fromB[m] = w));
  const count = new Int32Array(size);
  for (let w = 0; w < a.starts.length; w++) for (let i = a.postStart[w]; i < a.postStart[w + 1]; i++) if (aRow[a.postings[i]] >= 0) count[w] += 1;
  for (let w = 0; w < b.starts.length; w++) count[bTo[w]] += b.postStart[w + 1] - b.postStart[w];
  const kept: number[] = [];
  for (let m = 0; m < size; m++) if (count[m] > 0) kept.push(m);
  const postStart = new Int32Array(kept.length + 1);
  kept.forEach((m, k) => (postStart[k + 1] = postStart[k] + count[m]));
  const postings = new Int32Array(postStart[kept.length]);
  kept.forEach((m, k) => {
    // Both lists ascend in the new rows (the row maps keep order): merged in one pass.
    let [i, iEnd] = m < a.starts.length ? [a.postStart[m], a.postStart[m + 1]] : [0, 0];
    const bw = fromB[m];
    let [j, jEnd] = bw >= 0 ? [b.postStart[bw], b.postStart[bw + 1]] : [0, 0];
    let at = postStart[k];
    for (;;) {
      while (i < iEnd && aRow[a.postings[i]] < 0) i++;
      const x = i < iEnd ? aRow[a.postings[i]] : -1;
      const y = j < jEnd ? bRow[b.postings[j]] : -1;
      if (x < 0 && y < 0) break;
      if (y < 0 || (x >= 0 && x < y)) {
        postings[at++] = x;
        i++;
      } else {
        postings[at++] = y;
        j++;
      }
    }
  });
  return { ...dictionary(kept.map(word)), postStart, postings };
}

/** The brokerage links of a's kept rows and of b's, under their rows' new numbers. */
function mergeBrokers(a: BrokerIndex, aRow: Int32Array, b: BrokerIndex, bRow: Int32Array): BrokerIndex {
  const { size, bTo, word } = mergeWords(a, b);
  const most = a.linkRow.length + b.linkRow.length;
  const links = { row: new Int32Array(most), from: new Int32Array(most), to: new Int32Array(most), name: new Int32Array(most) };
  let kept = 0;
  const add = (x: BrokerIndex, rowOf: Int32Array, nameOf: (w: number) => number) => {
    for (let w = 0; w < x.starts.length; w++) {
      const name = nameOf(w);
      for (let l = x.linkStart[w]; l < x.linkStart[w + 1]; l++) {
        if (rowOf[x.linkRow[l]] < 0) continue;
        links.row[kept] = rowOf[x.linkRow[l]];
        links.from[kept] = x.linkFrom[l];
        links.to[kept] = x.linkTo[l];
        links.name[kept++] = name;
      }
    }
  };
  add(a, aRow, (w) => w);
  add(b, bRow, (w) => bTo[w]);
  for (const k of ['row', 'from', 'to', 'name'] as const) links[k] = links[k].subarray(0, kept);
  const used = new Int32Array(size).fill(-1);
  const names: string[] = [];
  for (const m of links.name) if (used[m] < 0) used[m] = names.push(word(m)) - 1;
  const linkStart = new Int32Array(names.length + 1);
  for (const m of links.name) linkStart[used[m] + 1] += 1;
  for (let w = 0; w < names.length; w++) linkStart[w + 1] += linkStart[w];
  const fill = linkStart.slice(0, names.length);
  const linkRow = new Int32Array(links.row.length);
  const linkFrom = new Int32Array(links.row.length);
  const linkTo = new Int32Array(links.row.length);
  links.row.forEach((row, i) => {
    const at = fill[used[links.name[i]]]++;
    linkRow[at] = row;
    linkFrom[at] = links.from[i];
    linkTo[at] = links.to[i];
  });
  return { ...dictionary(names), linkStart, linkRow, linkFrom, linkTo };
}

const emptyField = (): FieldIndex => ({ ...dictionary([]), postStart: new Int32Array(1), postings: new Int32Array(0) });
const emptyState = (): StateIndex => ({
  n: 0,
  ids: new Uint8Array(0),
  status: new Uint8Array(0),
  type: new Uint8Array(0),
  numbers: dictionary([]),
  keys: dictionary([]),
  fields: Object.fromEntries(FIELDS.map((f) => [f, emptyField()])) as Record<Field, FieldIndex>,
  brokers: { ...dictionary([]), linkStart: new Int32Array(1), linkRow: new Int32Array(0), linkFrom: new Int32Array(0), linkTo: new Int32Array(0) },
});

/** The first four bytes of row r's id as a 32-bit integer (a small integer to V8: a cheap Map key). */
const idHead = (ids: Uint8Array, r: number) => word32(ids, r * 16);

/** Ids (UUIDs) to leave out, tested by a row's binary id: found by its first four bytes, then compared whole. */
function idSet(ids: string[]) {
  const binary = Buffer.from(ids.map((id) => id.replaceAll('-', '')).join(''), 'hex');
  // The id of each first four bytes; -1 where two share them (then the text of the row's id is looked up).
  const heads = new Map<number, number>();
  ids.forEach((_, k) => {
    const head = idHead(binary, k);
    heads.set(head, heads.has(head) ? -1 : k);
  });
  const whole = new Set(ids.map((id) => id.toLowerCase()));
  return (of: Uint8Array, r: number) => {
    const k = heads.get(idHead(of, r));
    if (k === undefined) return false;
    if (k === -1) return whole.has(uuidOf(of, r));
    for (let i = 0; i < 16; i++) if (of[r * 16 + i] !== binary[k * 16 + i]) return false;
    return true;
  };
}

/**
 * Runs of consecutive rows a merge takes from one side: `order` (i for a's row i, -1 - j for b's
 * row j) cut where the side changes or a row is skipped. Copying a run at a time, rather than a
 * row, is what keeps a patch of a large state from costing a string and a copy per row.
 */
function runsOf(order: Int32Array): { row: number; from: number; len: number }[] {
  const runs: { row: number; from: number; len: number }[] = [];
  for (let row = 0; row < order.length; ) {
    const from = order[row];
    let end = row + 1;
    while (end < order.length && order[end] === order[end - 1] + (from >= 0 ? 1 : -1)) end++;
    runs.push({ row, from, len: end - row });
    row = end;
  }
  return runs;
}

/** A dictionary of the merged rows' words (as dictionary() would make it), a run's text copied at once. */
function mergedDictionary(a: { text: string; starts: Int32Array }, b: { text: string; starts: Int32Array }, runs: ReturnType<typeof runsOf>, n: number) {
  if (n === 0) return dictionary([]);
  const starts = new Int32Array(n);
  const pieces = ['\n'];
  let offset = 1;
  for (const { row, from, len } of runs) {
    const [d, r] = from >= 0 ? [a, from] : [b, -1 - from];
    const textFrom = d.starts[r];
    const textTo = r + len < d.starts.length ? d.starts[r + len] : d.text.length;
    for (let k = 0; k < len; k++) starts[row + k] = d.starts[r + k] - textFrom + offset;
    pieces.push(d.text.slice(textFrom, textTo));
    offset += textTo - textFrom;
  }
  return { text: pieces.join(''), starts };
}

/**
 * State a's rows but those `gone` marks, and b's rows, in result order: b's row j goes before a's
 * row i when place[j] <= i (placesOf), so the merge compares no keys.
 */
function mergeStates(a: StateIndex, gone: Uint8Array, b: StateIndex, place: Int32Array): StateIndex {
  const aRow = new Int32Array(a.n);
  const bRow = new Int32Array(b.n);
  // Each new row's source: i for a's row i, -1 - j for b's row j.
  const order = new Int32Array(a.n + b.n);
  let n = 0;
  for (let i = 0, j = 0; i < a.n || j < b.n; ) {
    if (j < b.n && (i === a.n || place[j] <= i)) {
      order[n] = -1 - j;
      bRow[j++] = n++;
    } else if (gone[i]) aRow[i++] = -1;
    else {
      order[n] = i;
      aRow[i++] = n++;
    }
  }
  const runs = runsOf(order.subarray(0, n));
  const ids = new Uint8Array(n * 16);
  const status = new Uint8Array(n);
  const type = new Uint8Array(n);
  for (const { row, from, len } of runs) {
    const [x, r] = from >= 0 ? [a, from] : [b, -1 - from];
    ids.set(x.ids.subarray(r * 16, (r + len) * 16), row * 16);
    status.set(x.status.subarray(r, r + len), row);
    type.set(x.type.subarray(r, r + len), row);
  }
  return {
    n,
    ids,
    status,
    type,
    numbers: mergedDictionary(a.numbers, b.numbers, runs, n),
    keys: mergedDictionary(a.keys, b.keys, runs, n),
    fields: Object.fromEntries(FIELDS.map((f) => [f, mergeField(a.fields[f], aRow, b.fields[f], bRow)])) as Record<Field, FieldIndex>,
    brokers: mergeBrokers(a.brokers, aRow, b.brokers, bRow),
  };
}

/**
 * What a state's patch serves until it is merged in (overlayFromFile): the changed rows as an index
 * of their own, where each goes among the state's rows, and which of those they replace or remove.
 * Serving it takes a build of the changed rows alone, not of the state (0033).
 */
export interface StateOverlay {
  rows: StateIndex;
  /** Per row of `rows`: how many of the state's rows sort before it. */
  place: Int32Array;
  /** 1 for each of the state's rows that is replaced or removed. */
  gone: Uint8Array;
}
/** The rows a state shows with its overlay: the overlay's, and the state's it leaves in place. */
export const overlaidRows = (o: StateOverlay) => o.rows.n + o.gone.length - o.gone.reduce((n: number, x) => n + x, 0);

export interface SearchIndexOverlay {
  states: [string, StateOverlay][];
  /** The base's codes and those the changed rows added. */
  codes: [string, number][];
}
/** What an overlay needs of the states it goes over: ids, keys and numbers (a worker is handed these alone). */
export type OverlayBase = { states: [string, Pick<StateIndex, 'n' | 'ids' | 'keys' | 'numbers'>][]; codes: [string, number][] };

export const overlayBase = (parts: SearchIndexParts, states: Set<string>): OverlayBase => ({
  states: parts.states.filter(([s]) => states.has(s)).map(([s, { n, ids, keys, numbers }]) => [s, { n, ids, keys, numbers }]),
  codes: parts.codes,
});

/** Per row of b: how many of a's rows sort before it or share its key (where mergeStates puts it). */
function placesOf(a: Pick<StateIndex, 'n' | 'keys' | 'numbers'>, b: StateIndex): Int32Array {
  const place = new Int32Array(b.n);
  let at = 0;
  for (let j = 0; j < b.n; j++) {
    const key = keyOf(b, j);
    // Galloping from the last place: b's rows ascend, so each search starts where the last ended.
    let lo = at;
    let hi = at;
    for (let step = 1; hi < a.n && keyOf(a, hi) <= key; step *= 2) {
      lo = hi + 1;
      hi = Math.min(a.n, hi + step);
    }
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (keyOf(a, mid) <= key) lo = mid + 1;
      else hi = mid;
    }
    place[j] = at = lo;
  }
  return place;
}

/**
 * The overlay of `base`'s states by an export file of the rows of the credentials `changed`
 * (SEARCH_INDEX_COLUMNS and SEARCH_BROKER_COLUMNS rows as the new generation shows them; an id with
 * no row has left): a publish that changed a fifth of a state is taken up without reading or
 * building the state again (0029, 0033).
 */
export async function overlayFromFile(base: OverlayBase, changed: string[], file: string): Promise<SearchIndexOverlay> {
  return overlayFromParts(base, changed, await buildSearchIndexParts(readBulkFile(file), new Map(base.codes)));
}

/** The overlay from the changed rows packed by the run that changed them (packSearchRows), a state a pack. */
export function overlayFromPacked(base: OverlayBase, changed: string[], packed: Uint8Array[]): SearchIndexOverlay {
  return overlayFromParts(base, changed, joinParts([{ states: [], codes: base.codes }, ...packed.map(unpackSearchRows)]));
}

/** The overlay of `base`'s states by `fresh`, the changed rows built with `base`'s codes (overlayFromFile). */
function overlayFromParts(base: OverlayBase, changed: string[], fresh: SearchIndexParts): SearchIndexOverlay {
  const skip = idSet(changed);
  const rows = new Map(fresh.states);
  const before = new Map(base.states);
  const states = [...new Set([...before.keys(), ...rows.keys()])].map((s): [string, StateOverlay] => {
    const a = before.get(s) ?? emptyState();
    const b = rows.get(s) ?? emptyState();
    const gone = new Uint8Array(a.n);
    for (let i = 0; i < a.n; i++) if (skip(a.ids, i)) gone[i] = 1;
    return [s, { rows: b, place: placesOf(a, b), gone }];
  });
  return { states, codes: fresh.codes };
}

/**
 * Search rows (SEARCH_INDEX_COLUMNS and SEARCH_BROKER_COLUMNS, as an export holds them) built as
 * the index's parts and packed: a refresh keeps its changed rows so, and each serving process that
 * is one publish behind overlays them without building them again (0048).
 */
export async function packSearchRows(rows: SearchIndexRow[]): Promise<Uint8Array> {
  const parts = await buildSearchIndexParts((async function* () {
    yield rows;
  })());
  // A copy that owns its memory: it is transferred from a worker thread.
  return new Uint8Array(zlib.gzipSync(v8.serialize({ format: PACK_FORMAT, parts }), { level: 1 }));
}

/** A pack's parts (packSearchRows), each typed array owning its memory; an error if the pack is of another format. */
export function unpackSearchRows(packed: Uint8Array): SearchIndexParts {
  const { format, parts } = v8.deserialize(zlib.gunzipSync(packed)) as { format: number; parts: SearchIndexParts };
  if (format !== PACK_FORMAT) throw new Error(`a search rows pack of format ${format}, not ${PACK_FORMAT}`);
  return ownBuffers(parts);
}
const PACK_FORMAT = 1;

/**
 * `x` with every typed array in it owning its memory. Node's v8.deserialize gives Uint8Arrays as
 * views into the buffer it read, so the ids, status and type codes kept the whole file's buffer
 * alive (0007), and a view cannot be transferred to another thread apart from the rest.
 */
export function ownBuffers<T>(x: T): T {
  if (ArrayBuffer.isView(x)) return (x.byteLength === x.buffer.byteLength ? x : (x as unknown as Uint8Array).slice()) as T;
  if (Array.isArray(x)) return x.map(ownBuffers) as T;
  if (x && typeof x === 'object') for (const [k, v] of Object.entries(x)) (x as Record<string, unknown>)[k] = ownBuffers(v);
  return x;
}

/**
 * `base`'s states with an overlay of theirs merged in: the parts a fresh build of their rows gives,
 * made from the overlay's rows, places and marks without reading or comparing a key again (0033).
 */
export function mergeOverlay(base: SearchIndexParts, overlay: SearchIndexOverlay): SearchIndexParts {
  const before = new Map(base.states);
  return { states: overlay.states.map(([s, o]) => [s, mergeStates(before.get(s) ?? emptyState(), o.gone, o.rows, o.place)]), codes: overlay.codes };
}

/** What a worker thread of the index does (build-worker.ts). */
export type WorkerTask =
  | { task: 'file'; file: string; codes: SearchIndexParts['codes'] }
  | { task: 'overlay'; base: OverlayBase; changed: string[]; file: string }
  | { task: 'overlay'; base: OverlayBase; changed: string[]; packed: Uint8Array[] }
  | { task: 'merge'; base: SearchIndexParts; overlay: SearchIndexOverlay }
  | { task: 'split'; file: string; dir: string }
  | { task: 'pack'; rows: SearchIndexRow[] }
  | { task: 'parts'; files: string[]; codes: SearchIndexParts['codes'] };

/** The typed arrays of a state's index, to transfer rather than copy to another thread. */
function stateBuffers(s: StateIndex): ArrayBuffer[] {
  const out = [s.ids, s.status, s.type, s.numbers.starts, s.keys.starts];
  for (const f of FIELDS) out.push(s.fields[f].starts, s.fields[f].postStart, s.fields[f].postings);
  out.push(s.brokers.starts, s.brokers.linkStart, s.brokers.linkRow, s.brokers.linkFrom, s.brokers.linkTo);
  return out.map((a) => a.buffer as ArrayBuffer);
}

/** The typed arrays of parts or an overlay, to transfer rather than copy to another thread. */
export function transferables(x: SearchIndexParts | SearchIndexOverlay): ArrayBuffer[] {
  return x.states.flatMap(([, s]) => ('place' in s ? [...stateBuffers(s.rows), s.place.buffer as ArrayBuffer, s.gone.buffer as ArrayBuffer] : stateBuffers(s)));
}

/** The index over built parts, and over an overlay of some of their states (a patch not merged in yet). */
export function searchIndexFrom(parts: SearchIndexParts, overlay?: SearchIndexOverlay): SearchIndex {
  const states = new Map(parts.states);
  const overlays = new Map(overlay?.states);
  const codes = new Map(overlay?.codes ?? parts.codes);
  // Searches run one at a time (synchronously), so one scratch buffer serves them all.
  const marks = new Uint8Array(Math.max(0, ...parts.states.map(([, s]) => s.n), ...(overlay?.states ?? []).map(([, o]) => o.rows.n)) + 4);
  const inState = (s: StateIndex, f: SearchFilters, day: number): Int32Array | null => {
    // Each condition as the ascending rows meeting it; null when no text condition applies.
    const conditions: Int32Array[] = [];
    const term = (field: Field, list: string[]) => {
      for (const t of list) conditions.push(rowsOf(s.fields[field], matchingWords(s.fields[field], t), s.n, marks));
    };
    term('name', f.nameTerms);
    term('first', f.firstNameTerms);
    term('last', f.lastNameTerms);
    term('business', f.businessNameTerms);
    term('city', f.cityTerms);
    if (f.licenseNumberPrefix) conditions.push(Int32Array.from(matchingWords(s.numbers, f.licenseNumberPrefix, true)));
    for (const t of f.brokerageTerms) conditions.push(brokeredRows(s.brokers, t, day, s.n, marks));
    if (!conditions.length) return null;
    conditions.sort((a, b) => a.length - b.length);
    return conditions.reduce((acc, c) => (acc.length ? intersect(acc, c) : acc));
  };

  return {
    parts,
    rows: parts.states.reduce((n, [s, x]) => n + (overlays.has(s) ? 0 : x.n), 0) + (overlay?.states ?? []).reduce((n, [, o]) => n + overlaidRows(o), 0),
    search(f, skip, limit) {
      const status = f.status === undefined ? undefined : (codes.get(f.status) ?? -1);
      const type = f.licenseType === undefined ? undefined : (codes.get(f.licenseType) ?? -1);
      const ids: string[] = [];
      let total = 0;
      const day = f.brokerageTerms.length ? dayOf(f.today) : 0;
      /** Whether row r of s meets the status and type filters. */
      const kept = (s: StateIndex, r: number) => (status === undefined || s.status[r] === status) && (type === undefined || s.type[r] === type);
      /** The rows of s meeting every filter, ascending, those `gone` marks left out. */
      const matching = (s: StateIndex, gone?: Uint8Array): Int32Array => {
        const rows = inState(s, f, day);
        const count = rows ? rows.length : s.n;
        const out = new Int32Array(count);
        let k = 0;
        for (let i = 0; i < count; i++) {
          const r = rows ? rows[i] : i;
          if (!gone?.[r] && kept(s, r)) out[k++] = r;
        }
        return out.subarray(0, k);
      };
      for (const state of [...new Set(f.states)].sort()) {
        const s = states.get(state);
        const o = overlays.get(state);
        if (o) {
          // The state's rows and the overlay's in one order: overlay row j goes before the state's row r when place[j] <= r.
          const a = s ? matching(s, o.gone) : new Int32Array(0);
          const b = matching(o.rows);
          for (let i = 0, j = 0; i < a.length || j < b.length; total++) {
            const fromB = j < b.length && (i === a.length || o.place[b[j]] <= a[i]);
            if (total >= skip && ids.length < limit) ids.push(fromB ? uuidOf(o.rows.ids, b[j]) : uuidOf(s!.ids, a[i]));
            else if (total >= skip) {
              total += a.length - i + b.length - j;
              break;
            }
            if (fromB) j++;
            else i++;
          }
          continue;
        }
        if (!s) continue;
        const rows = inState(s, f, day);
        const count = rows ? rows.length : s.n;
        for (let i = 0; i < count; i++) {
          const r = rows ? rows[i] : i;
          if (!kept(s, r)) continue;
          if (total >= skip && ids.length < limit) ids.push(uuidOf(s.ids, r));
          total += 1;
        }
      }
      return { ids, total };
    },
  };
}
