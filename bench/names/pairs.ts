// The labelled name pairs (bench/names/pairs.jsonl) and how they resolve against the real source
// files in ../shared: shared by build-pairs.ts, evaluate.ts and test/unit/name-match.test.ts.
//
// A pair line names no one: each side is a file (under ../shared/data/sources/) and a line, the
// 1-based physical line of the CSV record (the header is line 1; these files have no multi-line
// records, which loadSources checks), plus for CT the column holding the name. The query side adds
// its shape (free `name` in some order, or first_name + last_name) and transforms applied in order.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { isFirmName, splitPublishedName } from '../../src/ingest/sources/ct-dcp.js';
import type { NameMatch, NameQuery, RecordNames } from '../../src/domain/name-match.js';

export const PAIRS_FILE = fileURLToPath(new URL('./pairs.jsonl', import.meta.url));
export const TX_FILE = 'TX/trec-license-holders-inspectors.csv';
export const CT_FILE = 'CT/6tja-6vdt-sample.csv';
export type CtColumn = 'real_estate_salesperson' | 'real_estate_broker';

export interface SourceRef { file: string; line: number; column?: CtColumn }

export type Part = 'first' | 'middle' | 'last';
export type Op =
  | { op: 'case'; to: 'lower' | 'title' | 'upper' }
  /** Puts an accent on the vowel (or N) at `at` of a part. */
  | { op: 'accent'; part: Part; at: number }
  | { op: 'punct'; kind: 'initial_period' | 'drop_apostrophe' | 'apostrophe_space' | 'extra_spaces' | 'comma_suffix' }
  | { op: 'initial'; part: 'first' | 'middle' }
  | { op: 'drop'; part: 'middle' | 'suffix' }
  | { op: 'suffix'; value: string }
  | { op: 'nickname'; value: string }
  /** A hyphenated or two-word surname: keep one of its parts, or join the parts with `join`. */
  | { op: 'surname'; keep?: number; join?: string }
  /** One typing slip at letter `at` of a part: swap with the next, omit, double, or hit `key`. */
  | { op: 'typo'; part: Part; at: number; kind: 'transpose' | 'omit' | 'double' | 'adjacent'; key?: string }
  /** Business names: drop or respell the legal ending, & <-> AND, add or drop THE. */
  | { op: 'business'; kind: 'drop_legal' | 'dotted_legal' | 'long_legal' | 'amp_to_and' | 'and_to_amp' | 'add_the' | 'drop_the' | 'drop_punct' };

export interface QuerySpec extends SourceRef {
  shape: 'name' | 'parts';
  order?: 'first_last' | 'last_comma_first' | 'last_first';
  transform: Op[];
}

export interface PairLine {
  id: number;
  kind: string;
  label: 'match' | 'nonmatch';
  record: SourceRef;
  query: QuerySpec;
}

/** Kinds counted as hard negatives (same surname, near-miss spelling, same given name, near business name). */
export const HARD_NEGATIVE_KINDS = new Set(['same_surname', 'near_miss', 'same_given', 'business_near']);

export type Rows = Map<string, Map<number, Record<string, string>>>;

/** The CT and TX files in `dir` (../shared/data/sources), each row by its line. */
export function loadSources(dir: string): Rows {
  const rows: Rows = new Map();
  for (const file of [TX_FILE, CT_FILE]) {
    const records = parse(fs.readFileSync(path.join(dir, file)), { columns: true, info: true, bom: true }) as {
      record: Record<string, string>;
      info: { lines: number };
    }[];
    const byLine = new Map<number, Record<string, string>>();
    records.forEach(({ record, info }, i) => {
      // A record's line is its number plus the header's only while no record spans lines.
      if (info.lines !== i + 2) throw new Error(`${file}: record ${i + 1} ends on line ${info.lines}: line numbers would not name it`);
      byLine.set(info.lines, record);
    });
    rows.set(file, byLine);
  }
  return rows;
}

export function row(rows: Rows, ref: SourceRef): Record<string, string> {
  const r = rows.get(ref.file)?.get(ref.line);
  if (!r) throw new Error(`no record at ${ref.file}:${ref.line}`);
  return r;
}

const clean = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
const SUFFIX_WORDS = /^(JR|SR|I|II|III|IV|V)\.?$/;

export interface PersonName { first: string; middle: string; last: string; suffix: string }

/** The name as published on that line: a person's parts, or a business name. */
export function publishedName(rows: Rows, ref: SourceRef): { person: PersonName } | { business: string } {
  const r = row(rows, ref);
  if (ref.file === TX_FILE) {
    const words = clean(r['Last Name']).split(' ');
    // TREC sometimes writes the suffix into Last Name ("GRAHAM II") and leaves Suffix empty.
    const inLast = words.length > 1 && SUFFIX_WORDS.test(words.at(-1)!) ? words.pop()! : '';
    // The Suffix column also holds credentials ("P.E"): only generational suffixes are the name's.
    const suffix = SUFFIX_WORDS.test(clean(r.Suffix)) ? clean(r.Suffix) : inLast;
    return { person: { first: clean(r['First Name']), middle: clean(r['Middle Name']), last: words.join(' '), suffix } };
  }
  const column = ref.column ?? 'real_estate_salesperson';
  const name = clean(r[column]);
  if (column === 'real_estate_broker' && isFirmName(name)) return { business: name };
  const p = splitPublishedName(name);
  return { person: { first: p.first, middle: p.middle, last: p.last, suffix: p.suffix } };
}

/** The record's names as ingest stores them (src/ingest/sources/tx-trec.ts, ct-dcp.ts). */
export function recordNames(rows: Rows, ref: SourceRef): RecordNames {
  const r = row(rows, ref);
  const orNull = (s: string | undefined) => clean(s) || null;
  if (ref.file === TX_FILE) {
    return { full_name: orNull(r['Full Name']), first_name: orNull(r['First Name']), middle_name: orNull(r['Middle Name']), last_name: orNull(r['Last Name']) };
  }
  const name = clean(r[ref.column ?? 'real_estate_salesperson']);
  if (ref.column === 'real_estate_broker' && isFirmName(name)) return { full_name: name, business_name: name };
  const p = splitPublishedName(name);
  return { full_name: name, first_name: orNull(p.first), middle_name: orNull(p.middle), last_name: orNull(p.last) };
}

const ACCENTED: Record<string, string> = { A: 'Á', E: 'É', I: 'Í', O: 'Ó', U: 'Ú', N: 'Ñ' };
const LEGAL_DOTTED: Record<string, string> = { LLC: 'L.L.C.', INC: 'INC.', CORP: 'CORP.', LTD: 'LTD.', CO: 'CO.', LLP: 'L.L.P.', LP: 'L.P.' };
const LEGAL_LONG: Record<string, string> = { INC: 'INCORPORATED', CORP: 'CORPORATION', CO: 'COMPANY', LTD: 'LIMITED', LLC: 'LIMITED LIABILITY COMPANY' };
const LEGAL = /[ ,]+(LLC|INC|CORP|CORPORATION|CO|COMPANY|LTD|LP|LLP|PLLC|PC)\.?$/;

export function applyTypo(s: string, o: Extract<Op, { op: 'typo' }>): string {
  const i = o.at;
  if (i < 0 || i >= s.length || !/[A-Z]/.test(s[i])) throw new Error(`typo at ${i} is not a letter`);
  switch (o.kind) {
    case 'transpose':
      return s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
    case 'omit':
      return s.slice(0, i) + s.slice(i + 1);
    case 'double':
      return s.slice(0, i + 1) + s[i] + s.slice(i + 1);
    case 'adjacent':
      return s.slice(0, i) + o.key + s.slice(i + 1);
  }
}

const titleCase = (s: string) => s.toLowerCase().replace(/(^|[\s'-])(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase());

/** The query a pair line sends: the published name on its line, transformed, in its shape. */
export function queryOf(rows: Rows, spec: QuerySpec): NameQuery {
  const published = publishedName(rows, spec);
  const flags = new Set<string>();
  let caseTo: 'lower' | 'title' | 'upper' = 'upper';
  if ('business' in published) {
    let b = published.business;
    for (const o of spec.transform) {
      if (o.op === 'case') caseTo = o.to;
      else if (o.op === 'business') b = businessOp(b, o.kind);
      else throw new Error(`op ${o.op} does not apply to a business name`);
    }
    return { name: applyCase(b, caseTo) };
  }
  const n = { ...published.person };
  for (const o of spec.transform) {
    switch (o.op) {
      case 'case':
        caseTo = o.to;
        break;
      case 'accent': {
        const s = n[o.part];
        const a = ACCENTED[s[o.at]];
        if (!a) throw new Error(`no accent for ${o.part}[${o.at}]`);
        n[o.part] = s.slice(0, o.at) + a + s.slice(o.at + 1);
        break;
      }
      case 'punct':
        if (o.kind === 'drop_apostrophe') for (const p of ['first', 'middle', 'last'] as const) n[p] = n[p].replace(/'/g, '');
        else if (o.kind === 'apostrophe_space') for (const p of ['first', 'middle', 'last'] as const) n[p] = n[p].replace(/'/g, ' ');
        else flags.add(o.kind);
        break;
      case 'initial':
        n[o.part] = n[o.part].split(' ').map((w) => w[0]).join(' ');
        break;
      case 'drop':
        n[o.part] = '';
        break;
      case 'suffix':
        n.suffix = o.value;
        break;
      case 'nickname':
        n.first = o.value;
        break;
      case 'surname': {
        const parts = n.last.split(/[ -]/);
        n.last = o.keep !== undefined ? parts[o.keep] : parts.join(o.join ?? ' ');
        break;
      }
      case 'typo':
        n[o.part] = applyTypo(n[o.part], o);
        break;
      case 'business':
        throw new Error('business op on a person');
    }
  }
  const initial = (s: string) => (flags.has('initial_period') ? s.split(' ').map((w) => (w.length === 1 ? `${w}.` : w)).join(' ') : s);
  const given = [initial(n.first), initial(n.middle)].filter(Boolean).join(' ');
  const suffix = n.suffix && (flags.has('comma_suffix') ? `, ${n.suffix}` : ` ${n.suffix}`);
  const sp = (s: string) => (flags.has('extra_spaces') ? `  ${s.replace(/ /g, '   ')} ` : s);
  if (spec.shape === 'parts') {
    return { first_name: sp(applyCase(given, caseTo)), last_name: sp(applyCase(`${n.last}${n.suffix ? ` ${n.suffix}` : ''}`, caseTo)) };
  }
  const text =
    spec.order === 'last_comma_first'
      ? `${n.last}${n.suffix ? ` ${n.suffix}` : ''}, ${given}`
      : spec.order === 'last_first'
        ? `${n.last} ${given}`
        : `${given} ${n.last}${suffix}`;
  return { name: sp(applyCase(text, caseTo)) };
}

function applyCase(s: string, to: 'lower' | 'title' | 'upper') {
  return to === 'lower' ? s.toLowerCase() : to === 'title' ? titleCase(s) : s;
}

function businessOp(b: string, kind: Extract<Op, { op: 'business' }>['kind']): string {
  switch (kind) {
    case 'drop_legal':
      return b.replace(LEGAL, '');
    case 'dotted_legal':
      return b.replace(/\b(LLC|INC|CORP|LTD|CO|LLP|LP)$/, (m) => LEGAL_DOTTED[m]);
    case 'long_legal':
      return b.replace(/\b(LLC|INC|CORP|LTD|CO)$/, (m) => LEGAL_LONG[m]);
    case 'amp_to_and':
      return b.replace(/ ?& ?/g, ' AND ');
    case 'and_to_amp':
      return b.replace(/ AND /g, ' & ');
    case 'add_the':
      return `THE ${b}`;
    case 'drop_the':
      return b.replace(/^THE /, '').replace(/ \(THE\)$/, '');
    case 'drop_punct':
      return b.replace(/[.,'()]/g, '').replace(/\s+/g, ' ').trim();
  }
}

export interface Resolved { pair: PairLine; query: NameQuery; record: RecordNames }

export function readPairs(file = PAIRS_FILE): PairLine[] {
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as PairLine);
}

export function resolvePairs(sources: string, pairs = readPairs()): Resolved[] {
  const rows = loadSources(sources);
  return pairs.map((pair) => ({ pair, query: queryOf(rows, pair.query), record: recordNames(rows, pair.record) }));
}

export interface Scores {
  pairs: number;
  positives: number;
  hardNegatives: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number;
  recall: number;
  byKind: Record<string, { pairs: number; errors: number }>;
  errors: { r: Resolved; got: NameMatch | null }[];
}

/** `exact` and `close` count as "names match". */
export function score(resolved: Resolved[], match: (q: NameQuery, r: RecordNames) => NameMatch | null): Scores {
  const s: Scores = { pairs: resolved.length, positives: 0, hardNegatives: 0, truePositives: 0, falsePositives: 0, falseNegatives: 0, precision: 0, recall: 0, byKind: {}, errors: [] };
  for (const r of resolved) {
    const got = match(r.query, r.record);
    const said = got !== null && got.result !== 'mismatch';
    const truth = r.pair.label === 'match';
    const k = (s.byKind[r.pair.kind] ??= { pairs: 0, errors: 0 });
    k.pairs++;
    if (truth) s.positives++;
    if (HARD_NEGATIVE_KINDS.has(r.pair.kind)) s.hardNegatives++;
    if (said && truth) s.truePositives++;
    if (said && !truth) s.falsePositives++;
    if (!said && truth) s.falseNegatives++;
    if (said !== truth) {
      k.errors++;
      s.errors.push({ r, got });
    }
  }
  s.precision = s.truePositives / Math.max(1, s.truePositives + s.falsePositives);
  s.recall = s.truePositives / Math.max(1, s.positives);
  return s;
}
