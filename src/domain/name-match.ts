// Matches a caller's name against the names a licence record holds (GET /licensees/verify?name=...).
import levenshtein from 'damerau-levenshtein';
import { parseFullName } from 'parse-full-name';
import { fold as foldText } from './identity.js';
import { sameGivenName } from './nicknames.js';

/**
 * Whether a caller's name is the record's name written differently.
 *
 * Persons: both names are folded (case, accents, punctuation, spacing; suffixes and titles
 * dropped) into words, and the query's words, in any order, are paired with the record's given,
 * middle and surname words. `exact`: every word pairs with an equal word. `close`: the given name
 * pairs (equal, an initial, a nickname from ./nicknames.ts, or typing slips), a surname word pairs
 * (equal or slips; one part of a two-word or hyphenated surname is enough), middle names may be
 * missing or initials, and no query word is left over where a record's middle or surname word is
 * too (two different middle names). A typing slip is a swap of neighbouring letters, a key next to
 * the right one, an extra letter beside its double or a neighbouring key, or a missing letter; it
 * counts in a word of 6 letters or more (two in one word of 9 or more), one in a name (given plus
 * surname) of 12 letters or more, two from 16. A query of a surname alone (or a first_name alone)
 * that pairs is `close`. Anything else is `mismatch`: another given name, another surname.
 *
 * Businesses: case, punctuation, `&`/AND, THE and legal endings (LLC, INC, CORP, CO, LTD, LP, LLP,
 * PLLC, PC and their long forms) are folded; `exact` when the word sets are equal, `close` when
 * they pair with typing slips, else `mismatch` (a word more or less is another firm).
 *
 * Score: exact 1; close 0.6 to 0.97, less for each tolerated variation; mismatch below 0.5 (0.45
 * times the share of the record's name the query covers).
 */

/** Recorded with every answer it judged (and signed into its receipt): raised whenever an answer on the frozen set changes. */
export const MATCHER_VERSION = 'name-match/2';

export const NAME_MATCH_RESULTS = ['exact', 'close', 'mismatch'] as const;
export type NameMatchResult = (typeof NAME_MATCH_RESULTS)[number];

/** What a caller sent: `name` (free text, any order, "LAST, FIRST M" or "First M. Last", or a business name) or first_name + last_name (either alone is allowed too). */
export interface NameQuery { name?: string; first_name?: string; last_name?: string }

/** The names a licence record holds (any may be null/undefined). */
export interface RecordNames { full_name?: string | null; first_name?: string | null; middle_name?: string | null; last_name?: string | null; business_name?: string | null }

export interface NameMatch { result: NameMatchResult; score: number; compared_with: { field: 'full_name' | 'business_name'; value: string } }

const SUFFIXES = new Set(['JR', 'SR', 'II', 'III', 'IV', 'V', 'ESQ', 'MD', 'PHD', 'DDS', 'CPA', 'PE']);
/** Suffixes that are never a name or an initial: dropped wherever they stand. */
const ALWAYS_SUFFIX = new Set(['JR', 'SR', 'II', 'III', 'IV', 'ESQ', 'PHD']);
const TITLES = new Set(['MR', 'MRS', 'MS', 'MISS', 'MX', 'DR', 'PROF', 'REV']);
/** Surname particles: a surname matched on these alone is not matched. */
const PARTICLES = new Set(['DE', 'DEL', 'DELA', 'LA', 'LE', 'LOS', 'LAS', 'VAN', 'VON', 'DER', 'DEN', 'DI', 'DA', 'DOS', 'DAS', 'DU', 'ST', 'SAN', 'Y', 'E', 'BIN', 'BEN', 'AL', 'EL']);
/** Longer names are no person's: a mismatch (and a bound on the pairing search). */
const MAX_WORDS = 10;
const LEGAL = new Set(['LLC', 'INC', 'INCORPORATED', 'CORP', 'CORPORATION', 'CO', 'COMPANY', 'LTD', 'LIMITED', 'LIABILITY', 'LP', 'LLP', 'LLLP', 'PLLC', 'PC', 'THE', 'AND']);

/** Folded as every name match is (identity.ts), in upper case, apostrophes joined, any other punctuation a space. */
const fold = (s: string | null | undefined) =>
  foldText(s ?? '').toUpperCase().replace(/['’`]/g, '').replace(/[^A-Z0-9]+/g, ' ').trim();
const words = (s: string | null | undefined) => fold(s).split(' ').filter(Boolean);

function withoutTrailingSuffixes(ws: string[]): string[] {
  const out = [...ws];
  while (out.length > 1 && SUFFIXES.has(out.at(-1)!)) out.pop();
  return out;
}

// ---- typing slips ----

const KEY_ROWS = ['QWERTYUIOP', 'ASDFGHJKL', 'ZXCVBNM'];
/** Keys touching each key on a QWERTY keyboard (rows are staggered half a key to the right going down). */
const NEAR_KEYS = new Map<string, string>();
KEY_ROWS.forEach((row, r) => {
  [...row].forEach((c, i) => {
    const near = [row[i - 1], row[i + 1], KEY_ROWS[r - 1]?.[i], KEY_ROWS[r - 1]?.[i + 1], KEY_ROWS[r + 1]?.[i - 1], KEY_ROWS[r + 1]?.[i]];
    NEAR_KEYS.set(c, near.filter(Boolean).join(''));
  });
});
const adjacent = (a: string | undefined, b: string | undefined) => !!a && !!b && (NEAR_KEYS.get(a)?.includes(b) ?? false);
const distance = (a: string, b: string) => levenshtein(a, b).steps;

/** Whether `typed` is `meant` with one typing slip (the two at Damerau distance 1). */
function oneSlip(typed: string, meant: string): boolean {
  let i = 0;
  while (i < typed.length && typed[i] === meant[i]) i++;
  if (typed.length === meant.length) {
    if (typed.slice(i + 1) === meant.slice(i + 1)) return adjacent(typed[i], meant[i]);
    return typed[i] === meant[i + 1] && typed[i + 1] === meant[i] && typed.slice(i + 2) === meant.slice(i + 2);
  }
  if (typed.length === meant.length + 1) {
    const c = typed[i];
    return c === typed[i - 1] || c === typed[i + 1] || adjacent(c, typed[i - 1]) || adjacent(c, typed[i + 1]);
  }
  return typed.length === meant.length - 1;
}

/** Typing slips that make `meant` into `typed`: 0, 1, 2, or Infinity when it takes more or other edits. */
function slips(typed: string, meant: string): number {
  if (typed === meant) return 0;
  if (Math.abs(typed.length - meant.length) > 2) return Infinity;
  const d = distance(typed, meant);
  if (d === 1) return oneSlip(typed, meant) ? 1 : Infinity;
  if (d !== 2 || typed.length > 24) return Infinity;
  // Two slips: some string one slip from each.
  const between = new Set<string>();
  for (let i = 0; i <= typed.length; i++) {
    if (i < typed.length) {
      between.add(typed.slice(0, i) + typed.slice(i + 1));
      if (i + 1 < typed.length) between.add(typed.slice(0, i) + typed[i + 1] + typed[i] + typed.slice(i + 2));
      for (const k of NEAR_KEYS.get(typed[i]) ?? '') between.add(typed.slice(0, i) + k + typed.slice(i + 1));
    }
    for (const k of new Set(meant)) between.add(typed.slice(0, i) + k + typed.slice(i));
  }
  for (const v of between) if (distance(v, meant) === 1 && oneSlip(typed, v) && oneSlip(v, meant)) return 2;
  return Infinity;
}

// ---- persons ----

type Role = 'given' | 'middle' | 'surname';
interface Word { text: string; role: Role; particle: boolean }
/** A record word, or the words of one part written together ("DE LA CRUZ" as DELACRUZ). */
interface Unit { text: string; covers: number; role: Role; single: boolean }
interface Person { words: Word[]; units: Unit[]; letters: number; value: string }
type Kind = 'exact' | 'initial' | 'nickname' | 'slip';
/** What a pairing of query words with record words adds up to (all the verdict depends on). */
interface Tally { used: number; leftOver: number; slips: number; soft: number; pairs: number; onlySurname: boolean }

function person(first: string | null | undefined, middle: string | null | undefined, last: string | null | undefined, value: string): Person | null {
  const f = words(first);
  const parts: [Role, string[]][] = [
    ['given', f.slice(0, 1)],
    ['middle', [...f.slice(1), ...words(middle)]],
    ['surname', withoutTrailingSuffixes(words(last)).filter((w) => !ALWAYS_SUFFIX.has(w))],
  ];
  const ws: Word[] = [];
  const units: Unit[] = [];
  for (const [role, list] of parts) {
    const start = ws.length;
    for (const text of list) {
      units.push({ text, covers: 1 << ws.length, role, single: true });
      ws.push({ text, role, particle: role === 'surname' && PARTICLES.has(text) });
    }
    if (list.length > 1) units.push({ text: list.join(''), covers: ((1 << list.length) - 1) << start, role, single: false });
  }
  // A first name of two words ("MARY ANN") is also one unit, the given name.
  if (f.length > 1) units.push({ text: f.join(''), covers: (1 << f.length) - 1, role: 'given', single: false });
  if (!ws.length) return null;
  return { words: ws, units, letters: [...f, ...parts[2][1]].join('').length, value };
}

function pair(q: string, u: Unit, merged: boolean): { kind: Kind; slips: number } | null {
  if (q === u.text) return { kind: 'exact', slips: 0 };
  if (merged) return null;
  const named = u.role !== 'surname' && u.single;
  if (named && ((q.length === 1 && u.text.length > 1 && u.text[0] === q) || (u.text.length === 1 && q.length > 1 && q[0] === u.text))) return { kind: 'initial', slips: 0 };
  if (u.role === 'given' && u.single && sameGivenName(q, u.text)) return { kind: 'nickname', slips: 0 };
  if (u.text.length >= 6) {
    const n = slips(q, u.text);
    if (n === 1 || (n === 2 && u.text.length >= 9)) return { kind: 'slip', slips: n };
  }
  return null;
}

interface Verdict { result: NameMatchResult; score: number }
const RANK: Record<NameMatchResult, number> = { exact: 2, close: 1, mismatch: 0 };
const better = (a: Verdict, b: Verdict | null) => !b || RANK[a.result] > RANK[b.result] || (a.result === b.result && a.score > b.score);

function judge(p: Person, queryLength: number, t: Tally, noSurname: boolean): Verdict {
  // One pass over the record's words (this runs for every pairing the walk completes).
  let givenAll = true;
  let missingMiddles = 0;
  let namedCount = 0;
  let namedCovered = 0;
  let surnameCount = 0;
  let surnameCovered = 0;
  let weightCovered = 0;
  let weightAll = 0;
  p.words.forEach((w, i) => {
    const covered = (t.used & (1 << i)) !== 0;
    const weight = w.role === 'middle' || w.particle ? 1 : 2;
    weightAll += weight;
    if (covered) weightCovered += weight;
    if (w.role === 'given') givenAll &&= covered;
    else if (w.role === 'middle') missingMiddles += covered ? 0 : 1;
    else {
      surnameCount += 1;
      surnameCovered += covered ? 1 : 0;
      if (!w.particle) {
        namedCount += 1;
        namedCovered += covered ? 1 : 0;
      }
    }
  });
  const missingSurnames = namedCount ? namedCount - namedCovered : surnameCount - surnameCovered;
  const allCovered = t.used === (1 << p.words.length) - 1;
  const share = weightCovered / weightAll;
  const mismatch = { result: 'mismatch' as const, score: Math.round(45 * share * (1 - t.leftOver / (queryLength + 1))) / 100 };

  if (t.leftOver === 0 && allCovered && t.soft === 0 && t.slips === 0) return { result: 'exact', score: 1 };
  if (t.slips > (p.letters >= 16 ? 2 : p.letters >= 12 ? 1 : 0)) return mismatch;
  if (t.leftOver > 0 && (missingMiddles > 0 || missingSurnames > 0)) return mismatch;
  const givenOk = givenAll;
  const surnameOk = !surnameCount || (namedCount ? namedCovered : surnameCovered) > 0;
  const onlySurname = t.pairs > 0 && t.leftOver === 0 && t.onlySurname;
  if (!givenOk && !onlySurname) return mismatch;
  if (!surnameOk && !(noSurname && givenOk && t.pairs > 0)) return mismatch;
  if (onlySurname || !surnameOk) return { result: 'close', score: 0.6 };
  const penalty = 0.05 * (t.soft + t.leftOver) + 0.07 * (t.slips + missingSurnames) + 0.03 * missingMiddles;
  return { result: 'close', score: Math.round(100 * Math.max(0.6, 0.97 - penalty)) / 100 };
}

/** The best pairing of the query's words (runs of up to three adjacent words may stand for one record word) with the record's. */
function matchPerson(p: Person, query: string[], noSurname: boolean): Verdict {
  if (query.length > MAX_WORDS || p.words.length > MAX_WORDS) return { result: 'mismatch', score: 0 };
  let best: Verdict | null = null;
  // How each run of query words pairs with each record unit, worked out once (the walk asks again and again).
  const pairs = query.map((_, i) =>
    [1, 2, 3].map((len) => (i + len <= query.length ? p.units.map((u) => pair(query.slice(i, i + len).join(''), u, len > 1)) : [])),
  );
  // Pairings that add up alike lead to the same verdicts: each is walked once.
  const seen = new Set<string>();
  const walk = (i: number, t: Tally) => {
    const key = `${i} ${t.used} ${t.leftOver} ${t.slips} ${t.soft} ${t.pairs > 0} ${t.onlySurname}`;
    if (seen.has(key)) return;
    seen.add(key);
    if (i === query.length) {
      const v = judge(p, query.length, t, noSurname);
      if (better(v, best)) best = v;
      return;
    }
    walk(i + 1, { ...t, leftOver: t.leftOver + 1 });
    for (let len = 1; len <= 3 && i + len <= query.length; len++) {
      for (const [k, u] of p.units.entries()) {
        if (u.covers & t.used) continue;
        const m = pairs[i][len - 1][k];
        if (!m) continue;
        walk(i + len, {
          used: t.used | u.covers,
          leftOver: t.leftOver,
          slips: Math.min(3, t.slips + m.slips),
          soft: t.soft + (m.kind === 'initial' || m.kind === 'nickname' ? 1 : 0),
          pairs: t.pairs + 1,
          onlySurname: t.onlySurname && u.role === 'surname',
        });
      }
    }
  };
  walk(0, { used: 0, leftOver: 0, slips: 0, soft: 0, pairs: 0, onlySurname: true });
  return best!;
}

/** The query's words in the order written, less titles, generational suffixes and a nickname in quotes or brackets. */
function queryWords(q: NameQuery): { words: string[]; noSurname: boolean } {
  if (q.name !== undefined && q.name.trim()) {
    const text = q.name.replace(/\s+/g, ' ').trim();
    const parsed = parseFullName(text, 'all', 0, 0, 0);
    const drop = [...words(parsed.title).filter((w) => TITLES.has(w)), ...words(parsed.suffix).filter((w) => SUFFIXES.has(w))];
    let ws = words(parsed.nick ? text.replace(/["“”(][^"“”()]*["“”)]/g, ' ') : text).filter((w) => !ALWAYS_SUFFIX.has(w));
    for (const d of drop) {
      const at = ws.lastIndexOf(d);
      if (at >= 0 && ws.length > 1) ws = [...ws.slice(0, at), ...ws.slice(at + 1)];
    }
    return { words: ws, noSurname: false };
  }
  const first = words(q.first_name);
  while (first.length > 1 && TITLES.has(first[0])) first.shift();
  const last = withoutTrailingSuffixes(words(q.last_name));
  return { words: [...first, ...last].filter((w) => !ALWAYS_SUFFIX.has(w)), noSurname: !last.length };
}

/** A record published as one full name ("FIRST M LAST", "LAST, FIRST M"). */
function personOfFullName(full: string): Person | null {
  const parsed = parseFullName(full.replace(/\s+/g, ' '), 'all', 0, 0, 0);
  const sound = (part: string | undefined, known: Set<string>) => words(part).every((w) => known.has(w));
  if (sound(parsed.suffix, SUFFIXES) && sound(parsed.title, TITLES) && !sound(parsed.last, SUFFIXES)) {
    return person(parsed.first, parsed.middle, parsed.last, full);
  }
  // The parser took a name for a suffix or title, or a suffix for the surname: the first word is
  // the given name, the last (or, with a comma, those before it) the surname.
  const [before, after] = full.split(',', 2);
  const ws = withoutTrailingSuffixes(words(after === undefined ? before : `${after} ${before}`));
  const last = after === undefined ? ws.slice(-1) : words(before);
  return person(ws[0], ws.slice(1, ws.length - last.length).join(' '), last.join(' '), full);
}

// ---- businesses ----

const businessWords = (s: string) =>
  foldText(s ?? '').toUpperCase().replace(/&/g, ' AND ').replace(/[.'’`]/g, '').replace(/[^A-Z0-9]+/g, ' ').trim()
    .split(' ').filter((w) => w && !LEGAL.has(w));

function matchBusiness(query: string, name: string): Verdict {
  const q = businessWords(query);
  const r = businessWords(name);
  if (!q.length || !r.length) return { result: 'mismatch', score: 0 };
  const sorted = (ws: string[]) => [...ws].sort().join(' ');
  if (sorted(q) === sorted(r) || q.join('') === r.join('')) return { result: 'exact', score: 1 };
  const shared = q.filter((w) => r.includes(w)).length;
  const mismatch = { result: 'mismatch' as const, score: Math.round((45 * shared) / new Set([...q, ...r]).size) / 100 };
  if (q.length !== r.length) return mismatch;
  // Pair each query word with an unused record word, equal or within typing slips.
  const left = [...r];
  let total = 0;
  for (const w of q) {
    let at = left.indexOf(w);
    let n = 0;
    if (at < 0) {
      at = left.findIndex((x) => x.length >= 6 && slips(w, x) === 1);
      n = 1;
    }
    if (at < 0) return mismatch;
    left.splice(at, 1);
    total += n;
  }
  return total <= 2 ? { result: 'close', score: Math.round(100 * (0.97 - 0.07 * total)) / 100 } : mismatch;
}

// ---- the match ----

/** null when the record holds no name to compare with. */
export function matchName(query: NameQuery, record: RecordNames): NameMatch | null {
  const full = record.full_name?.trim() || null;
  const business = record.business_name?.trim() || null;
  const hasParts = !!(record.first_name?.trim() || record.last_name?.trim());
  const candidates: { field: 'full_name' | 'business_name'; value: string; verdict: () => Verdict }[] = [];
  const q = queryWords(query);
  const text = query.name?.trim() || [query.first_name, query.last_name].filter(Boolean).join(' ');

  let p: Person | null = null;
  if (hasParts) {
    const value = full ?? [record.first_name, record.middle_name, record.last_name].map((s) => s?.trim()).filter(Boolean).join(' ');
    p = person(record.first_name, record.middle_name, record.last_name, value);
  } else if (full && !business) {
    p = personOfFullName(full);
  }
  if (p) {
    const found = p;
    candidates.push({ field: 'full_name', value: found.value, verdict: () => (q.words.length ? matchPerson(found, q.words, q.noSurname) : { result: 'mismatch', score: 0 }) });
  }
  if (business) candidates.push({ field: 'business_name', value: business, verdict: () => matchBusiness(text, business) });
  else if (full && !hasParts) candidates.push({ field: 'full_name', value: full, verdict: () => matchBusiness(text, full) });

  let best: NameMatch | null = null;
  for (const c of candidates) {
    const v = c.verdict();
    if (!best || better(v, best)) best = { result: v.result, score: v.score, compared_with: { field: c.field, value: c.value } };
  }
  return best;
}
