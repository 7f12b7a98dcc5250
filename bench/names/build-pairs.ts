// Writes bench/names/pairs.jsonl, the labelled name pairs, from the real TX and CT files in
// ../shared/data/sources (see pairs.ts for the line format). Deterministic: a seeded generator
// picks the records and variations. The set is frozen (its hash is in test/unit/name-match.test.ts):
// rerun only to fix a labelling bug, and update the hash saying so.
//
//   npx tsx bench/names/build-pairs.ts
//
// Positives are one real person's published name against their own record, varied the ways the
// matcher must tolerate. Negatives are two different real licence holders (different licence
// numbers, and names that could not be one person written differently: rows with the same folded
// full name are left out, as are given names that are equal, initials, prefixes or nicknames of
// one another).
import fs from 'node:fs';
import path from 'node:path';
import levenshtein from 'damerau-levenshtein';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { SHARED_SOURCES, hasShared } from '../../test/helpers/source-files.js';
import {
  CT_FILE, HARD_NEGATIVE_KINDS, PAIRS_FILE, TX_FILE, applyTypo, loadSources, publishedName, queryOf, recordNames,
  type Op, type PairLine, type PersonName, type QuerySpec, type Rows, type SourceRef,
} from './pairs.js';

const SEED = 20261127;

/**
 * Common English nicknames (formal name -> nicknames) the set draws its nickname pairs from: kept
 * here, apart from the matcher's own table, so the set does not simply replay the matcher.
 */
const NICKNAMES: Record<string, string[]> = {
  ROBERT: ['BOB', 'BOBBY', 'ROB', 'ROBBIE'], WILLIAM: ['BILL', 'BILLY', 'WILL', 'WILLIE'], JAMES: ['JIM', 'JIMMY', 'JAMIE'],
  JOHN: ['JACK', 'JOHNNY'], RICHARD: ['RICK', 'RICKY', 'RICH', 'DICK'], MICHAEL: ['MIKE', 'MICKEY'], THOMAS: ['TOM', 'TOMMY'],
  CHRISTOPHER: ['CHRIS'], DANIEL: ['DAN', 'DANNY'], DAVID: ['DAVE'], JOSEPH: ['JOE', 'JOEY'], CHARLES: ['CHARLIE', 'CHUCK'],
  ANTHONY: ['TONY'], MATTHEW: ['MATT'], STEVEN: ['STEVE'], STEPHEN: ['STEVE'], EDWARD: ['ED', 'EDDIE', 'TED'],
  KENNETH: ['KEN', 'KENNY'], TIMOTHY: ['TIM'], GREGORY: ['GREG'], JEFFREY: ['JEFF'], RONALD: ['RON', 'RONNIE'],
  DONALD: ['DON', 'DONNIE'], GERALD: ['JERRY'], DOUGLAS: ['DOUG'], BENJAMIN: ['BEN'], SAMUEL: ['SAM'], NICHOLAS: ['NICK'],
  ALEXANDER: ['ALEX'], ANDREW: ['ANDY', 'DREW'], JONATHAN: ['JON'], NATHAN: ['NATE'], NATHANIEL: ['NATE'], PATRICK: ['PAT'],
  PHILLIP: ['PHIL'], PHILIP: ['PHIL'], RAYMOND: ['RAY'], LAWRENCE: ['LARRY'], FREDERICK: ['FRED'], ZACHARY: ['ZACH'],
  JOSHUA: ['JOSH'], JACOB: ['JAKE'], BRADLEY: ['BRAD'], TERRENCE: ['TERRY'], ALBERT: ['AL'], THEODORE: ['TED', 'TEDDY'],
  VINCENT: ['VINCE'], LEONARD: ['LEN', 'LEO'], MITCHELL: ['MITCH'], GABRIEL: ['GABE'], FRANKLIN: ['FRANK'], FRANCIS: ['FRANK'],
  WALTER: ['WALT'], HAROLD: ['HAL'], HENRY: ['HANK'], CLIFFORD: ['CLIFF'], RANDALL: ['RANDY'], STANLEY: ['STAN'],
  EUGENE: ['GENE'], ELIZABETH: ['LIZ', 'BETH', 'BETSY'], KATHERINE: ['KATE', 'KATHY', 'KATIE'], CATHERINE: ['CATHY', 'KATE'],
  KATHRYN: ['KATHY', 'KATE'], MARGARET: ['MAGGIE', 'PEGGY', 'MEG'], JENNIFER: ['JEN', 'JENNY'], REBECCA: ['BECKY'],
  SUSAN: ['SUE'], DEBORAH: ['DEBBIE', 'DEB'], PATRICIA: ['PATTY', 'TRISH'], BARBARA: ['BARB'], JESSICA: ['JESS'],
  CHRISTINA: ['TINA', 'CHRISSY'], CHRISTINE: ['CHRIS'], VICTORIA: ['VICKY', 'TORI'], ABIGAIL: ['ABBY'], SAMANTHA: ['SAM'],
  KIMBERLY: ['KIM'], PAMELA: ['PAM'], CYNTHIA: ['CINDY'], JACQUELINE: ['JACKIE'], MICHELLE: ['SHELLY'], ALEXANDRA: ['ALEX'],
  DOROTHY: ['DOT', 'DOTTIE'], JUDITH: ['JUDY'],
};

const LETTERS = (s: string) => s.replace(/[^A-Z]/g, '');
const fold = (s: string) => s.normalize('NFKD').toUpperCase().replace(/[^A-Z ]/g, '').replace(/\s+/g, ' ').trim();
const dist = (a: string, b: string) => levenshtein(a, b).steps;

const QWERTY = ['QWERTYUIOP', 'ASDFGHJKL', 'ZXCVBNM'];
/** Keys next to `c` on a QWERTY keyboard (same row, and the rows above and below, offset as keyboards are). */
function neighbours(c: string): string[] {
  const r = QWERTY.findIndex((row) => row.includes(c));
  const i = QWERTY[r].indexOf(c);
  const near = [QWERTY[r][i - 1], QWERTY[r][i + 1], QWERTY[r - 1]?.[i], QWERTY[r - 1]?.[i + 1], QWERTY[r + 1]?.[i - 1], QWERTY[r + 1]?.[i]];
  return near.filter((k): k is string => !!k);
}

const rng = xoroshiro128plus(SEED);
const int = (n: number) => uniformInt(rng, 0, n - 1);
const chance = (p: number) => int(1_000_000) < p * 1_000_000;
const pick = <T>(a: readonly T[]): T => a[int(a.length)];
function shuffle<T>(a: readonly T[]): T[] {
  const b = [...a];
  for (let i = b.length - 1; i > 0; i--) {
    const j = int(i + 1);
    [b[i], b[j]] = [b[j], b[i]];
  }
  return b;
}

interface Person { ref: SourceRef; name: PersonName; first: string; last: string; full: string }

function people(rows: Rows): { tx: Person[]; ct: Person[]; firms: { ref: SourceRef; name: string }[] } {
  const tx: Person[] = [];
  const ct: Person[] = [];
  const firms = new Map<string, { ref: SourceRef; name: string }>();
  const add = (list: Person[], ref: SourceRef) => {
    const p = publishedName(rows, ref);
    if (!('person' in p)) return;
    const n = p.person;
    // Only clean names: letters, spaces, hyphens, apostrophes and periods (no phone numbers or "(ROD)").
    if (!n.first || !n.last || /[^A-Z' .-]/.test(`${n.first} ${n.middle} ${n.last}`)) return;
    list.push({ ref, name: n, first: fold(n.first), last: fold(n.last), full: fold(`${n.first} ${n.middle} ${n.last}`) });
  };
  for (const line of rows.get(TX_FILE)!.keys()) add(tx, { file: TX_FILE, line });
  for (const [line, r] of rows.get(CT_FILE)!) {
    add(ct, { file: CT_FILE, line, column: 'real_estate_salesperson' });
    if (!r.real_estate_broker) continue;
    const ref: SourceRef = { file: CT_FILE, line, column: 'real_estate_broker' };
    const b = publishedName(rows, ref);
    if ('business' in b && !firms.has(r.broker_credential)) firms.set(r.broker_credential, { ref, name: b.business });
  }
  // Rows sharing a folded full name may be one person: none of them is used.
  const count = new Map<string, number>();
  for (const p of [...tx, ...ct]) count.set(p.full, (count.get(p.full) ?? 0) + 1);
  const single = (p: Person) => count.get(p.full) === 1;
  return { tx: tx.filter(single), ct: ct.filter(single), firms: [...firms.values()] };
}

/** Given names one person could go by: equal, an initial or prefix of the other, nicknames of one name. */
function relatedGiven(a: string, b: string): boolean {
  const x = a.split(' ')[0];
  const y = b.split(' ')[0];
  if (!x || !y || x === y || x.startsWith(y) || y.startsWith(x)) return true;
  const forms = (n: string) => new Set([n, ...(NICKNAMES[n] ?? []), ...Object.entries(NICKNAMES).filter(([, v]) => v.includes(n)).flatMap(([k, v]) => [k, ...v])]);
  const fx = forms(x);
  return [...forms(y)].some((f) => fx.has(f));
}

/** A near-miss spelling: the same first letter and one edit, or two in names of seven letters or more. */
function nearSpelling(a: string, b: string): boolean {
  const d = dist(a, b);
  return a[0] === b[0] && (d === 1 || (d === 2 && Math.min(a.length, b.length) >= 7));
}

/** Could these two rows be one person (same name, or one person's name written differently)? */
function maybeSame(a: Person, b: Person): boolean {
  if (a.full === b.full) return true;
  const mids = (p: Person) => fold(p.name.middle).split(' ').filter(Boolean);
  // One going by the other's middle name.
  if (mids(a).includes(b.first.split(' ')[0]) || mids(b).includes(a.first.split(' ')[0])) return true;
  if (LETTERS(a.last) === LETTERS(b.last) && relatedGiven(a.first, b.first)) return true;
  // Near spellings with agreeing middle names look like one person entered twice.
  const [ma, mb] = [mids(a).join(' '), mids(b).join(' ')];
  const middlesAgree = !!ma && !!mb && (ma === mb || (ma.length === 1 && mb.startsWith(ma)) || (mb.length === 1 && ma.startsWith(mb)));
  return middlesAgree && (nearSpelling(a.first, b.first) || nearSpelling(LETTERS(a.last), LETTERS(b.last)));
}

const out: Omit<PairLine, 'id'>[] = [];
const used = new Set<string>();
const key = (r: SourceRef) => `${r.file}:${r.line}:${r.column ?? ''}`;

/** A caller's way of writing a name: the shape, order and case, drawn at random. */
function render(forceName = false): Pick<QuerySpec, 'shape' | 'order'> & { ops: Op[] } {
  const to = pick(['upper', 'upper', 'title', 'title', 'title', 'lower'] as const);
  const ops: Op[] = to === 'upper' ? [] : [{ op: 'case', to }];
  if (!forceName && chance(0.35)) return { shape: 'parts', ops };
  const r = int(20);
  return { shape: 'name', order: r < 10 ? 'first_last' : r < 17 ? 'last_comma_first' : 'last_first', ops };
}

function positive(kind: string, p: Person | { ref: SourceRef }, ops: Op[], opts: { forceName?: boolean; order?: QuerySpec['order'] } = {}) {
  const r = render(opts.forceName || !!opts.order);
  const query: QuerySpec = { ...p.ref, shape: r.shape, ...(opts.order ? { order: opts.order } : r.order ? { order: r.order } : {}), transform: [...ops, ...r.ops] };
  used.add(key(p.ref));
  out.push({ kind, label: 'match', record: p.ref, query });
}

function negative(kind: string, record: SourceRef, other: Person | { ref: SourceRef }, ops: Op[] = []) {
  const r = render(!('name' in other));
  out.push({ kind, label: 'nonmatch', record, query: { ...other.ref, shape: r.shape, ...(r.order ? { order: r.order } : {}), transform: [...ops, ...r.ops] } });
}

/** `n` of `pool` matching `ok`, those not used yet first, about a fifth from CT where it has any. */
function sample(tx: Person[], ct: Person[], n: number, ok: (p: Person) => boolean): Person[] {
  const fresh = (list: Person[]) => {
    const s = shuffle(list.filter(ok));
    return [...s.filter((p) => !used.has(key(p.ref))), ...s.filter((p) => used.has(key(p.ref)))];
  };
  const fromCt = fresh(ct).slice(0, Math.round(n / 5));
  return [...fromCt, ...fresh(tx).slice(0, n - fromCt.length)];
}

const letterPositions = (s: string, from = 1) => [...s].map((c, i) => (i >= from && /[A-Z]/.test(c) ? i : -1)).filter((i) => i >= 0);

function slip(part: 'first' | 'middle' | 'last', s: string, avoid: number[] = []): Op {
  const at = pick(letterPositions(s).filter((i) => avoid.every((a) => Math.abs(a - i) > 2)));
  const kinds = ['transpose', 'omit', 'double', 'adjacent'] as const;
  let kind = pick(kinds);
  if (kind === 'transpose' && !(/[A-Z]/.test(s[at + 1] ?? '') && s[at + 1] !== s[at])) kind = 'adjacent';
  return kind === 'adjacent' ? { op: 'typo', part, at, kind, key: pick(neighbours(s[at])) } : { op: 'typo', part, at, kind };
}

function build(rows: Rows) {
  const { tx, ct, firms } = people(rows);
  const single = (s: string) => !s.includes(' ');
  const PARTICLES = /^(DE|DEL|DELA|LA|LE|VAN|VON|DI|DA|DOS|DAS|ST|MC|MAC|EL|AL|BIN|VANDER)[ -]/;

  // Positives.
  for (const p of sample(tx, ct, 25, () => true)) positive('reorder', p, [], { order: chance(0.7) ? 'last_comma_first' : 'last_first' });

  for (const p of sample(tx, ct, 25, (p) => /[AEIOUN]/.test(p.name.first + p.name.last))) {
    const ops: Op[] = [{ op: 'case', to: pick(['lower', 'title'] as const) }];
    const part = pick((['first', 'last'] as const).filter((k) => /[AEIOUN]/.test(p.name[k])));
    ops.push({ op: 'accent', part, at: pick([...p.name[part]].map((c, i) => (/[AEIOUN]/.test(c) ? i : -1)).filter((i) => i >= 0)) });
    if (/'/.test(p.name.last + p.name.first)) {
      ops.push({ op: 'punct', kind: pick(['drop_apostrophe', 'apostrophe_space'] as const) });
    }
    if (/(^| )[A-Z]( |$)/.test(p.name.middle)) ops.push({ op: 'punct', kind: 'initial_period' });
    if (p.name.suffix) ops.push({ op: 'punct', kind: 'comma_suffix' });
    if (chance(0.3)) ops.push({ op: 'punct', kind: 'extra_spaces' });
    // The accent and case above are the variation: the caller's shape is drawn, case left as set.
    const r = render();
    out.push({ kind: 'case_accents_punct', label: 'match', record: p.ref, query: { ...p.ref, shape: r.shape, ...(r.order ? { order: r.order } : {}), transform: ops } });
    used.add(key(p.ref));
  }
  // Apostrophes are rare: a few more names that have one.
  for (const p of sample(tx, ct, 6, (p) => /'/.test(p.name.first + p.name.last))) {
    positive('case_accents_punct', p, [{ op: 'punct', kind: pick(['drop_apostrophe', 'apostrophe_space'] as const) }]);
  }

  for (const p of sample(tx, ct, 20, (p) => single(p.name.first) && p.first.length >= 3)) {
    positive('initial_first', p, [{ op: 'initial', part: 'first' }, ...(chance(0.5) ? [{ op: 'punct', kind: 'initial_period' } as Op] : [])]);
  }
  for (const p of sample(tx, ct, 20, (p) => LETTERS(p.name.middle).length >= 3 && single(p.name.middle))) {
    positive('initial_middle', p, [{ op: 'initial', part: 'middle' }, ...(chance(0.5) ? [{ op: 'punct', kind: 'initial_period' } as Op] : [])]);
  }
  for (const p of sample(tx, ct, 25, (p) => !!p.name.middle)) positive('missing_middle', p, [{ op: 'drop', part: 'middle' }]);

  // Suffixes: TX publishes them apart from the full name (the query adds it); where the record's
  // own name carries one (CT, or TREC's Last Name "GRAHAM II"), the query drops it.
  const carries = (p: Person) => p.ref.file === CT_FILE || !rows.get(TX_FILE)!.get(p.ref.line)!.Suffix;
  for (const p of sample(tx, ct, 8, (p) => !!p.name.suffix && carries(p))) positive('suffix', p, [{ op: 'drop', part: 'suffix' }]);
  for (const p of sample(tx, [], 12, (p) => !!p.name.suffix && !carries(p))) positive('suffix', p, chance(0.5) ? [{ op: 'punct', kind: 'comma_suffix' }] : []);

  const formal = Object.entries(NICKNAMES).filter(([, v]) => v.length);
  const nickOf = new Map<string, string>();
  for (const [f, v] of formal) for (const n of v) if (!nickOf.has(n) && formal.filter(([, w]) => w.includes(n)).length === 1) nickOf.set(n, f);
  for (const p of sample(tx, ct, 19, (p) => NICKNAMES[p.first]?.length > 0)) positive('nickname', p, [{ op: 'nickname', value: pick(NICKNAMES[p.first]) }]);
  for (const p of sample(tx, ct, 6, (p) => nickOf.has(p.first))) positive('nickname', p, [{ op: 'nickname', value: nickOf.get(p.first)! }]);

  for (const p of sample(tx, ct, 22, (p) => /[ -]/.test(p.name.last))) {
    const particle = PARTICLES.test(p.name.last);
    const hyphen = p.name.last.includes('-');
    const choices: Op[] = particle
      ? [{ op: 'surname', join: '' }]
      : [{ op: 'surname', keep: 0 }, { op: 'surname', keep: 0 }, { op: 'surname', keep: 1 }, { op: 'surname', join: hyphen ? ' ' : '-' }, { op: 'surname', join: '' }];
    positive('surname_parts', p, [pick(choices)]);
  }

  // Typing slips in long names: one, or two where the name has 16 letters or more.
  for (const p of sample(tx, ct, 30, (p) => LETTERS(p.first + p.last).length >= 12 && (LETTERS(p.first).length >= 6 || LETTERS(p.last).length >= 6))) {
    const parts = (['first', 'last'] as const).filter((k) => LETTERS(p.name[k]).length >= 6);
    const a = pick(parts);
    const ops: Op[] = [slip(a, p.name[a])];
    if (LETTERS(p.first + p.last).length >= 16 && chance(0.5)) {
      const other = parts.find((k) => k !== a);
      if (other) ops.push(slip(other, p.name[other]));
      else if (LETTERS(p.name[a]).length >= 9) {
        // A second slip in the same part, written against the part after the first slip.
        const first = ops[0] as Extract<Op, { op: 'typo' }>;
        ops.push(slip(a, applyTypo(p.name[a], first), [first.at]));
      }
    }
    positive('typo', p, ops);
  }

  const businessOps = (b: string): Op[] => {
    const ops: Op[] = [];
    if (/\b(LLC|INC|CORP|LTD|CO|LLP|LP|PC|PLLC)$/.test(b)) ops.push({ op: 'business', kind: pick(['drop_legal', 'dotted_legal', 'long_legal'] as const) });
    if (b.includes('&')) ops.push({ op: 'business', kind: 'amp_to_and' });
    if (/ AND /.test(b)) ops.push({ op: 'business', kind: 'and_to_amp' });
    if (/^THE |\(THE\)$/.test(b)) ops.push({ op: 'business', kind: 'drop_the' });
    else if (chance(0.2)) ops.push({ op: 'business', kind: 'add_the' });
    if (/[.,'()]/.test(b) && chance(0.7)) ops.push({ op: 'business', kind: 'drop_punct' });
    return shuffle(ops).slice(0, 2);
  };
  for (const f of shuffle(firms).slice(0, 20)) {
    const ops = businessOps(f.name);
    positive('business', f, [...ops, ...(chance(0.5) ? [{ op: 'case', to: pick(['title', 'lower'] as const) } as Op] : [])], { forceName: true });
  }

  // Negatives: another real licence holder's name against a record.
  const dropMiddle = (o: Person): Op[] => (o.name.middle && chance(0.5) ? [{ op: 'drop', part: 'middle' }] : []);
  const taken = new Set<string>();
  const addNeg = (kind: string, a: Person, b: Person) => {
    const k = [key(a.ref), key(b.ref)].sort().join('|');
    if (taken.has(k) || maybeSame(a, b)) return false;
    taken.add(k);
    const [rec, q] = chance(0.5) ? [a, b] : [b, a];
    negative(kind, rec.ref, q, dropMiddle(q));
    return true;
  };
  const all = [...tx, ...ct];
  const byLast = group(all, (p) => LETTERS(p.last));
  const byFirst = group(all, (p) => p.first.split(' ')[0]);

  const nearPairs: [Person, Person][] = [];
  const surnamePairs: [Person, Person][] = [];
  for (const g of byLast.values()) {
    for (let i = 0; i < g.length; i++) {
      for (let j = i + 1; j < g.length; j++) {
        if (relatedGiven(g[i].first, g[j].first)) continue;
        (nearSpelling(g[i].first, g[j].first) ? nearPairs : surnamePairs).push([g[i], g[j]]);
      }
    }
  }
  const givenPairs: [Person, Person][] = [];
  for (const g of byFirst.values()) {
    if (g.length > 400) continue; // the commonest given names give pairs enough from a sample
    for (let i = 0; i < g.length; i++) {
      for (let j = i + 1; j < g.length; j++) {
        if (g[i].first !== g[j].first) continue;
        if (LETTERS(g[i].last) === LETTERS(g[j].last)) continue;
        (nearSpelling(LETTERS(g[i].last), LETTERS(g[j].last)) ? nearPairs : givenPairs).push([g[i], g[j]]);
      }
    }
  }
  const take = (kind: string, pairs: [Person, Person][], n: number) => {
    let k = 0;
    for (const [a, b] of shuffle(pairs)) if (k < n && addNeg(kind, a, b)) k++;
    if (k < n) throw new Error(`only ${k} ${kind} pairs`);
  };
  take('same_surname', surnamePairs, 55);
  take('near_miss', nearPairs, 45);
  take('same_given', givenPairs, 35);
  let easy = 0;
  while (easy < 25) {
    const a = pick(all);
    const b = pick(all);
    if (a !== b && dist(a.first, b.first) >= 3 && dist(LETTERS(a.last), LETTERS(b.last)) >= 3 && addNeg('easy', a, b)) easy++;
  }

  // Business negatives: two different firms (different broker credentials), near ones sharing a distinctive word.
  const COMMON = /^(LLC|INC|CORP|CO|LTD|LP|LLP|PC|THE|OF|AND|&|REAL|ESTATE|REALTY|REALTORS|REALTOR|TEAM|BROKERS|GROUP|PROPERTIES|PROPERTY|REFERRAL|NETWORK|HOME|HOMES|CT|CONNECTICUT|NEW|ENGLAND|PARTNERS|COMPANY|SERVICES|SRVCS|ASSOC|ASSOCIATES|MANAGEMENT|INTERNATIONAL)$/;
  const words = (b: string) => new Set(fold(b.replace(/[&-]/g, ' ')).split(' ').filter((w) => w && !COMMON.test(w)));
  const near: [typeof firms[number], typeof firms[number]][] = [];
  for (let i = 0; i < firms.length; i++) {
    for (let j = i + 1; j < firms.length; j++) {
      const wi = words(firms[i].name);
      if ([...words(firms[j].name)].some((w) => wi.has(w))) near.push([firms[i], firms[j]]);
    }
  }
  for (const [a, b] of shuffle(near).slice(0, 10)) negative('business_near', a.ref, b);
  for (let k = 0; k < 5; ) {
    const a = pick(firms);
    const b = pick(firms);
    if (a !== b && ![...words(a.name)].some((w) => words(b.name).has(w))) {
      negative('business_other', a.ref, b);
      k++;
    }
  }
}

function group<T>(list: T[], by: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const t of list) {
    const k = by(t);
    if (k) m.set(k, [...(m.get(k) ?? []), t]);
  }
  return m;
}

if (!hasShared) {
  console.log(`skipped: ${SHARED_SOURCES} is absent (the pairs are built from the real source files there)`);
} else {
  const rows = loadSources(SHARED_SOURCES);
  build(rows);
  const lines = out.map((p, i) => ({ id: i + 1, ...p }));
  // Every line must resolve, and no line may hold a name.
  for (const l of lines) {
    queryOf(rows, l.query);
    recordNames(rows, l.record);
  }
  fs.writeFileSync(PAIRS_FILE, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const kinds: Record<string, number> = {};
  for (const l of lines) kinds[`${l.label} ${l.kind}`] = (kinds[`${l.label} ${l.kind}`] ?? 0) + 1;
  const hard = lines.filter((l) => HARD_NEGATIVE_KINDS.has(l.kind)).length;
  console.log(`${lines.length} pairs written to ${path.relative(process.cwd(), PAIRS_FILE)}; hard negatives ${hard} (${((100 * hard) / lines.length).toFixed(1)}%)`);
  console.table(kinds);
}
