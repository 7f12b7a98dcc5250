#!/usr/bin/env node
// Deterministic generator of the demo dataset in the canonical import format
// (README: Canonical import format): seeds/demo/{jurisdictions,credentials,relationships}.csv.
//
//   node seeds/generate.mjs            write the three files, then re-read and verify them
//   node seeds/generate.mjs --check    only verify the files already on disk
//
// Plain Node (>= 20), no dependencies. One seeded PRNG (mulberry32) drives every choice and
// no clock or locale is read, so the output is byte-identical on every run. All names, numbers
// and street addresses are fictional; every row carries source `demo`.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT_DIR = join(dirname(fileURLToPath(import.meta.url)), 'demo');
const SEED = 20261101;
const SOURCE = 'demo';
const SNAPSHOT = '2026-11-01';
const LAST_VERIFIED = '2026-11-01T06:00:00Z';
const LAST_VERIFIED_NY = '2026-10-28T06:00:00Z';

// ---------------------------------------------------------------------------------------------
// Columns, in the order the doc lists them
// ---------------------------------------------------------------------------------------------
const JURISDICTION_COLUMNS = [
  'state', 'status', 'refresh_frequency', 'relationship_coverage', 'relationship_coverage_notes',
  'source_id', 'source_name', 'source_url', 'source_format',
];
const CREDENTIAL_COLUMNS = [
  'state', 'license_number', 'license_type', 'license_type_display', 'status', 'status_normalized',
  'entity_type', 'full_name', 'first_name', 'middle_name', 'last_name', 'suffix', 'business_name',
  'issue_date', 'expiration_date', 'address_kind', 'address_line1', 'address_line2', 'address_city',
  'address_county', 'address_region', 'address_postal_code', 'address_country', 'brokerage_name',
  'licensee_key', 'source', 'snapshot_date', 'last_verified', 'notes',
];
const RELATIONSHIP_COLUMNS = [
  'supervisor_state', 'supervisor_license_number', 'affiliate_state', 'affiliate_license_number',
  'affiliate_role', 'relationship_type', 'effective_from', 'effective_to', 'source',
];

// Published status -> filter value (the subset of src/domain/vocabulary.ts STATUS_TABLE used here).
const STATUS_TABLE = {
  'active': 'active', 'probation active': 'active', 'current active': 'active', 'probation': 'active',
  'licensed': 'active', 'licensed nba': 'active',
  'inactive': 'inactive', 'current inactive': 'inactive', 'invol inactive': 'inactive',
  'revoked': 'inactive', 'surrendered': 'inactive', 'deceased': 'inactive', 'deleted': 'inactive',
  'cancelled': 'inactive',
  'expired': 'expired', 'expired less than 6 months': 'expired', 'expired more than 6 months': 'expired',
  'delinquent': 'expired',
  'suspended': 'suspended',
};
const statusKey = (s) => s.toLowerCase().replace(/[^a-z0-9 ]+/g, ' ').replace(/\s+/g, ' ').trim();
const normalizeStatus = (s) => STATUS_TABLE[statusKey(s)];

// ---------------------------------------------------------------------------------------------
// PRNG and date helpers
// ---------------------------------------------------------------------------------------------
function mulberry32(a) {
  return function () {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = mulberry32(SEED);
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
const pick = (arr) => arr[Math.floor(rand() * arr.length)];
const chance = (p) => rand() < p;
function weighted(items, weightOf) {
  const total = items.reduce((s, x) => s + weightOf(x), 0);
  let r = rand() * total;
  for (const x of items) {
    r -= weightOf(x);
    if (r < 0) return x;
  }
  return items[items.length - 1];
}
/** Deterministic round-robin over a list, so every listed value is guaranteed to appear. */
function cycler(list) {
  let i = 0;
  return () => list[i++ % list.length];
}

const DAY_MS = 86400000;
const dn = (s) => Date.UTC(+s.slice(0, 4), +s.slice(5, 7) - 1, +s.slice(8, 10)) / DAY_MS;
const ds = (n) => new Date(n * DAY_MS).toISOString().slice(0, 10);
const yearOf = (n) => new Date(n * DAY_MS).getUTCFullYear();
const monthOf = (n) => new Date(n * DAY_MS).getUTCMonth() + 1;
const eom = (y, m) => Date.UTC(y, m, 0) / DAY_MS; // last day of month m (1-based)
const addYears = (n, k) => {
  const d = new Date(n * DAY_MS);
  return Date.UTC(d.getUTCFullYear() + k, d.getUTCMonth(), Math.min(d.getUTCDate(), 28)) / DAY_MS;
};
const dateIn = (lo, hi) => int(typeof lo === 'string' ? dn(lo) : lo, typeof hi === 'string' ? dn(hi) : hi);

const TODAY = dn(SNAPSHOT); // 2026-11-01: nothing may be in force "after" this
const ISSUE_MIN = dn('1985-01-01');
const ISSUE_MAX = dn('2026-10-15');
const REL_MIN = dn('2005-01-01');
const REL_MAX_FROM = dn('2026-10-31');

// ---------------------------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------------------------
const FIRST_F = ['Mary', 'Patricia', 'Jennifer', 'Linda', 'Elizabeth', 'Barbara', 'Susan', 'Jessica', 'Sarah',
  'Karen', 'Lisa', 'Nancy', 'Betty', 'Sandra', 'Margaret', 'Ashley', 'Kimberly', 'Emily', 'Donna', 'Michelle',
  'Carol', 'Amanda', 'Melissa', 'Deborah', 'Stephanie', 'Rebecca', 'Laura', 'Sharon', 'Cynthia', 'Kathleen',
  'Amy', 'Angela', 'Anna', 'Brenda', 'Emma', 'Olivia', 'Megan', 'Rachel', 'Heather', 'Julie', 'Hannah', 'Grace',
  'Lauren', 'Natalie', 'Monica', 'Teresa', 'Diana', 'Gloria', 'Rosa', 'Carmen', 'Victoria', 'Christina'];
const FIRST_M = ['James', 'Robert', 'John', 'Michael', 'David', 'William', 'Richard', 'Joseph', 'Thomas',
  'Christopher', 'Charles', 'Daniel', 'Matthew', 'Anthony', 'Mark', 'Donald', 'Steven', 'Andrew', 'Paul',
  'Joshua', 'Kenneth', 'Kevin', 'Brian', 'George', 'Timothy', 'Ronald', 'Jason', 'Edward', 'Jeffrey', 'Ryan',
  'Jacob', 'Gary', 'Nicholas', 'Eric', 'Jonathan', 'Stephen', 'Larry', 'Justin', 'Scott', 'Brandon',
  'Benjamin', 'Samuel', 'Gregory', 'Patrick', 'Frank', 'Raymond', 'Carlos', 'Luis', 'Miguel', 'Tyler'];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez',
  'Martinez', 'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson',
  'Martin', 'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson',
  'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores', 'Green', 'Adams',
  'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts', 'Gomez', 'Phillips', 'Evans',
  'Turner', 'Diaz', 'Parker', 'Cruz', 'Edwards', 'Collins', 'Reyes', 'Stewart', 'Morris', 'Morales', 'Murphy',
  'Cook', 'Rogers', 'Gutierrez', 'Ortiz', 'Morgan', 'Cooper', 'Peterson', 'Bailey', 'Reed', 'Kelly', 'Howard',
  'Ramos', 'Kim', 'Cox', 'Ward', 'Richardson', 'Watson', 'Brooks', 'Chavez', 'Wood', 'Bennett', 'Gray',
  'Mendoza', 'Ruiz', 'Hughes', 'Price', 'Alvarez', 'Castillo', 'Sanders', 'Patel', 'Myers', 'Long', 'Ross',
  'Foster', 'Jimenez', 'Vasquez', 'Shah', 'Okafor', 'Sullivan', 'Fischer', 'Novak', 'Kowalski', 'Tran'];
const MIDDLE_EXTRA = ['Lee', 'Ann', 'Marie', 'Lynn', 'Ray', 'Jo', 'Dean', 'Wayne', 'Rose', 'Jean', 'Alan', 'Mae'];
const SUFFIXES = ['Jr.', 'Sr.', 'II', 'III'];
// Combinations that would name a well-known real person are never produced.
const BLOCKED = new Set(['Michael Jackson', 'James Brown', 'John Adams', 'Paul Allen', 'Stephen King',
  'Larry King', 'Patrick Stewart', 'Diana Ross', 'Gary Cooper', 'Anthony Davis', 'Christopher Evans',
  'Jessica Parker', 'Steven Wright', 'Michael Moore', 'Kevin James', 'Robert Smith', 'John Lewis',
  'George Harris', 'Emma Thompson', 'Tyler Perry', 'Paul Walker', 'Mark Taylor', 'David Lee', 'Samuel Jackson',
  'James Taylor', 'George Martin', 'Richard Harris', 'Kevin Kelly', 'Michael Scott', 'Grace Kelly',
  'Brian Wilson', 'Ryan Gomez', 'Steven Adams', 'Eric Roberts', 'Julie Andrews', 'Kenneth Cooper']);
// Accented names (accent-insensitive search), some with middle names and suffixes.
const SPECIAL_NAMES = {
  TX: [['José', '', 'Muñoz', ''], ['Raúl', 'Andrés', 'Hernández', 'Jr.'], ['Inés', '', 'Ibáñez', ''],
    ['Héctor', '', 'Núñez', 'III']],
  FL: [['Zoë', '', 'Brontë', ''], ['Sofía', 'Isabel', 'Peña', ''], ['René', '', 'Côté', ''],
    ['Chloé', 'Marie', 'Gagné', '']],
  CA: [['François', '', 'Lefèvre', ''], ['Renée', 'Claire', 'Dubois', ''], ['Jesús', '', 'Domínguez', 'Jr.'],
    ['Anaïs', '', 'Bélanger', '']],
  NY: [['JOSÉ', 'LUIS', 'CASTAÑEDA', '']],
};
const usedNames = new Set();
const personCount = { TX: 0, FL: 0, CA: 0, NY: 0 };

function makePerson(state) {
  const n = personCount[state]++;
  if (n % 9 === 4 && SPECIAL_NAMES[state].length) {
    const [first, middle, last, suffix] = SPECIAL_NAMES[state].shift();
    const p = { first, middle, last, suffix };
    usedNames.add(fullNameOf(p));
    return p;
  }
  for (;;) {
    const female = chance(0.5);
    const first = pick(female ? FIRST_F : FIRST_M);
    const last = pick(LAST);
    if (BLOCKED.has(`${first} ${last}`)) continue;
    let middle = '';
    if (chance(0.22)) middle = chance(0.3) ? pick(MIDDLE_EXTRA) : pick(female ? FIRST_F : FIRST_M);
    if (middle === first) continue;
    const suffix = !female && chance(0.05) ? pick(SUFFIXES) : '';
    const p = state === 'NY'
      ? { first: first.toUpperCase(), middle: middle.toUpperCase(), last: last.toUpperCase(), suffix: suffix.toUpperCase() }
      : { first, middle, last, suffix };
    const key = fullNameOf(p).toUpperCase();
    if (usedNames.has(key)) continue;
    usedNames.add(key);
    return p;
  }
}
const upper = (p) => Object.fromEntries(Object.entries(p).map(([k, v]) => [k, v.toUpperCase()]));
function fullNameOf(p) {
  return [p.first, p.middle, p.last, p.suffix].filter(Boolean).join(' ');
}

// ---------------------------------------------------------------------------------------------
// Addresses (street addresses are made up; cities, counties and ZIP codes are real places)
// ---------------------------------------------------------------------------------------------
const CITIES = {
  TX: [
    ['Austin', 'Travis', ['78701', '78704', '78731', '78745', '78750']],
    ['Houston', 'Harris', ['77002', '77007', '77024', '77056', '77098']],
    ['Dallas', 'Dallas', ['75201', '75206', '75219', '75230', '75248']],
    ['San Antonio', 'Bexar', ['78205', '78209', '78230', '78249', '78258']],
    ['Round Rock', 'Williamson', ['78664', '78665', '78681']],
    ['Fort Worth', 'Tarrant', ['76102', '76107', '76116', '76132']],
    ['El Paso', 'El Paso', ['79902', '79912', '79936']],
    ['Katy', 'Harris', ['77449', '77450', '77494']],
  ],
  FL: [
    ['Miami', 'Miami-Dade', ['33130', '33131', '33133', '33156', '33176']],
    ['Orlando', 'Orange', ['32801', '32803', '32819', '32835']],
    ['Tampa', 'Hillsborough', ['33602', '33606', '33611', '33647']],
    ['Cape Coral', 'Lee', ['33904', '33914', '33990', '33991']],
    ['Jacksonville', 'Duval', ['32202', '32207', '32224', '32256']],
    ['Sarasota', 'Sarasota', ['34231', '34236', '34238']],
    ['Fort Lauderdale', 'Broward', ['33301', '33304', '33308']],
  ],
  CA: [
    ['Los Angeles', 'Los Angeles', ['90012', '90024', '90036', '90045', '90068']],
    ['San Diego', 'San Diego', ['92101', '92103', '92109', '92122', '92130']],
    ['Sacramento', 'Sacramento', ['95814', '95816', '95825', '95831']],
    ['San Jose', 'Santa Clara', ['95110', '95125', '95129']],
    ['Fresno', 'Fresno', ['93704', '93711', '93720']],
    ['Irvine', 'Orange', ['92602', '92612', '92618']],
  ],
  NY: [
    ['New York', 'New York', ['10001', '10016', '10023', '10128']],
    ['Brooklyn', 'Kings', ['11201', '11215', '11217', '11238']],
    ['White Plains', 'Westchester', ['10601', '10603', '10605']],
    ['Poughkeepsie', 'Dutchess', ['12601', '12603']],
    ['Albany', 'Albany', ['12203', '12208']],
    ['Buffalo', 'Erie', ['14202', '14209', '14222']],
  ],
};
const STREETS = ['Oak', 'Maple', 'Cedar', 'Elm', 'Magnolia', 'Willow', 'Lakeview', 'Sunset', 'Ridgecrest',
  'Meadowbrook', 'Park', 'Hillcrest', 'Riverbend', 'Highland', 'Briarwood', 'Cypress', 'Juniper', 'Sycamore',
  'Chestnut', 'Laurel', 'Harbor View', 'Quail Run', 'Stonegate', 'Fox Hollow', 'Bay Breeze', 'Heron Point'];
const STREET_SUFFIX = ['St', 'Ave', 'Dr', 'Ln', 'Blvd', 'Rd', 'Ct', 'Way', 'Pkwy', 'Trl'];

function makeAddress(state, kind, opts = {}) {
  const [city, county, zips] = opts.city ? CITIES[state].find((c) => c[0] === opts.city) : weighted(CITIES[state], (c) => c[2].length);
  let line1;
  let line2 = '';
  if (kind === 'mailing' && chance(0.07)) {
    line1 = `PO Box ${int(100, 98999)}`;
  } else if ((state === 'FL' || state === 'NY') && chance(0.35)) {
    const ord = int(2, 140);
    const sfx = ord % 10 === 1 && ord % 100 !== 11 ? 'st' : ord % 10 === 2 && ord % 100 !== 12 ? 'nd' : ord % 10 === 3 && ord % 100 !== 13 ? 'rd' : 'th';
    const dir = state === 'FL' ? `${pick(['NW', 'NE', 'SW', 'SE'])} ` : pick(['West ', 'East ', '']);
    line1 = `${int(10, 9899)} ${dir}${ord}${sfx} ${pick(['St', 'Ave', 'Ter', 'Ct'])}`;
  } else {
    line1 = `${int(100, 9899)} ${pick(STREETS)} ${pick(STREET_SUFFIX)}`;
  }
  if (kind === 'business' || opts.business) {
    if (chance(0.4)) line2 = `Suite ${int(1, 9) * 100 + int(0, 40)}`;
  } else if (!line1.startsWith('PO Box') && chance(0.15)) {
    line2 = chance(0.5) ? `Apt ${int(1, 30)}${pick(['A', 'B', 'C', 'D'])}` : `Unit ${int(1, 400)}`;
  }
  return {
    address_kind: kind,
    address_line1: line1,
    address_line2: line2,
    address_city: city,
    address_county: opts.county === false ? '' : opts.county || chance(0.62) ? county : '',
    address_region: state,
    address_postal_code: pick(zips),
    address_country: 'US',
  };
}
const NO_ADDRESS = {
  address_kind: '', address_line1: '', address_line2: '', address_city: '', address_county: '',
  address_region: '', address_postal_code: '', address_country: '',
};

// ---------------------------------------------------------------------------------------------
// Credentials
// ---------------------------------------------------------------------------------------------
const credentials = [];
const usedNumbers = { TX: new Set(), FL: new Set(), CA: new Set(), NY: new Set() };
const usedKeys = new Set();
const canonical = (n) => n.trim().toUpperCase().replace(/\s+/g, '');

function uniqueNumber(state, gen) {
  for (;;) {
    const n = gen();
    if (!usedNumbers[state].has(canonical(n))) return n;
  }
}
function newKey(state) {
  for (;;) {
    const k = `demo-${state.toLowerCase()}-${String(int(101, 299999)).padStart(6, '0')}`;
    if (!usedKeys.has(k)) {
      usedKeys.add(k);
      return k;
    }
  }
}

/**
 * Adds one credential. `o`: state, number, type, display, status, issue, exp (day numbers),
 * person | business, address, brokerage, key (explicit, null for none, undefined for auto), notes.
 * `relEnd` (internal): the last day this licence can take part in a relationship.
 */
function addCredential(o) {
  const { state } = o;
  const canon = canonical(o.number);
  if (usedNumbers[state].has(canon)) throw new Error(`duplicate number ${state} ${o.number}`);
  usedNumbers[state].add(canon);
  const norm = normalizeStatus(o.status);
  if (!norm) throw new Error(`unknown status ${o.status}`);
  if (!(o.exp > o.issue)) throw new Error(`expiration before issue for ${state} ${o.number}`);
  const business = o.business != null;
  const p = o.person;
  let key = o.key;
  if (key === undefined) key = chance(0.93) ? newKey(state) : '';
  const row = {
    state,
    license_number: o.number,
    license_type: o.type,
    license_type_display: o.display,
    status: o.status,
    status_normalized: norm,
    entity_type: business ? 'business' : 'person',
    full_name: business ? o.business : fullNameOf(p),
    first_name: business ? '' : p.first,
    middle_name: business ? '' : p.middle,
    last_name: business ? '' : p.last,
    suffix: business ? '' : p.suffix,
    business_name: business ? o.business : '',
    issue_date: ds(o.issue),
    expiration_date: ds(o.exp),
    ...(o.address || NO_ADDRESS),
    brokerage_name: o.brokerage || '',
    licensee_key: key || '',
    source: SOURCE,
    snapshot_date: SNAPSHOT,
    last_verified: state === 'NY' ? LAST_VERIFIED_NY : LAST_VERIFIED,
    notes: (o.notes || []).join(' | '),
  };
  const cred = { row, state, type: o.type, norm, status: o.status, issue: o.issue, exp: o.exp };
  cred.relEnd = o.relEnd ?? relEndFor(cred);
  credentials.push(cred);
  return cred;
}

/** Last day a licence can be in a relationship: today when active, otherwise some past day. */
function relEndFor(c) {
  if (c.norm === 'active') return TODAY;
  if (c.norm === 'expired') return Math.min(c.exp, TODAY);
  if (c.norm === 'suspended') return TODAY - int(20, 420);
  // inactive: before the expiration when that is past, else some day in the last few years
  const hi = Math.min(c.exp, TODAY - 25);
  return Math.max(c.issue + 200, hi - int(0, 1200));
}

// --- per-state licence dates ---------------------------------------------------------------
// TX: two-year terms ending on the last day of the issue month.
function txDates(kind, opts = {}) {
  if (kind === 'future') {
    const issue = dateIn(opts.from ?? '1988-01-01', opts.to ?? ISSUE_MAX);
    const m = monthOf(issue);
    let y = yearOf(issue) + 2;
    while (eom(y, m) <= TODAY) y += 2;
    return { issue, exp: eom(y, m) };
  }
  // past: expiration month inside [lo, hi]
  const exp0 = dateIn(opts.lo, opts.hi);
  let exp = eom(yearOf(exp0), monthOf(exp0));
  if (exp > dn(opts.hi)) exp = eom(yearOf(exp0), monthOf(exp0)) - 31 < dn(opts.lo) ? dn(opts.hi) : eom(yearOf(exp0 - 31), monthOf(exp0 - 31));
  const years = 2 * int(1, opts.maxTerms ?? 8);
  let issueYear = Math.max(1986, yearOf(exp) - years);
  if (opts.issueAfter) issueYear = Math.max(issueYear, yearOf(dn(opts.issueAfter)));
  if (issueYear >= yearOf(exp)) issueYear = yearOf(exp) - 2;
  const m = monthOf(exp);
  const issue = Date.UTC(issueYear, m - 1, int(1, 28)) / DAY_MS;
  return { issue, exp };
}
// FL: licences expire on March 31 or September 30.
const FL_FUTURE = ['2027-03-31', '2027-09-30', '2028-03-31', '2028-09-30'];
function flDates(expList, opts = {}) {
  const exp = dn(pick(expList));
  const lo = dn(opts.from ?? '1988-01-01');
  const hi = Math.min(dn(opts.to ?? '2026-10-15'), exp - 400);
  return { issue: dateIn(lo, Math.max(lo, hi)), exp };
}
// CA: four-year terms; NY: two-year terms, both ending the day before the anniversary.
function termDates(years, kind, opts = {}) {
  if (kind === 'future') {
    const issue = dateIn(opts.from ?? '1988-01-01', opts.to ?? ISSUE_MAX);
    let k = 1;
    while (addYears(issue, years * k) - 1 <= TODAY) k++;
    return { issue, exp: addYears(issue, years * k) - 1 };
  }
  const exp = dateIn(opts.lo, opts.hi);
  const issue = Math.max(ISSUE_MIN, addYears(exp + 1, -years * int(1, opts.maxTerms ?? 6)));
  return { issue, exp: addYears(issue, years * Math.max(1, Math.round((exp - issue) / 365.25 / years))) - 1 };
}

// ---------------------------------------------------------------------------------------------
// Relationships
// ---------------------------------------------------------------------------------------------
const relationships = [];
const stats = { priorContiguous: 0, priorGap: 0 };

function addRel(sup, aff, type, role, from, to) {
  if (sup === aff) throw new Error('self loop');
  if (from < REL_MIN || from > REL_MAX_FROM) throw new Error(`effective_from out of range ${ds(from)}`);
  if (from < aff.issue || from < sup.issue) throw new Error(`effective_from before issue ${ds(from)}`);
  if (to != null && (to <= from || to > TODAY)) throw new Error(`bad effective_to ${ds(to)}`);
  relationships.push({ sup, aff, type, role, from, to: to ?? null });
}

/** A supervising licence as a target for affiliations: its window and how often it is chosen. */
function firm(cred, relType, opts = {}) {
  return {
    cred,
    relType,
    from: Math.max(cred.issue, REL_MIN, opts.from ?? 0),
    until: cred.norm === 'active' ? TODAY : cred.relEnd,
    weight: opts.weight ?? 4,
    open: opts.open ?? 0,
  };
}
const roleFor = (cred) => (cred.type === 'broker_associate' ? 'broker_associate' : 'salesperson');

/**
 * Closed affiliations of `aff` going back in time from `end` (exclusive of `avoid`).
 * Returns how many were made.
 */
function closedHistory(aff, firms, end, count, avoid, contiguousFirst) {
  let made = 0;
  let nextFirm = avoid;
  let to = end;
  for (let i = 0; i < count; i++) {
    if (i > 0 || !contiguousFirst) to -= int(15, 420);
    const lower0 = Math.max(aff.issue, REL_MIN);
    const cands = firms.filter((f) => f !== nextFirm && f.cred !== aff && f.from + 150 <= to && Math.max(f.from, lower0) + 150 <= Math.min(to, f.until));
    if (!cands.length) break;
    const f = weighted(cands, (x) => x.weight);
    const t = Math.min(to, f.until);
    const lower = Math.max(f.from, lower0);
    const from = dateIn(lower, Math.max(lower, t - 120 - (i === 0 ? 0 : 0)));
    const span = t - from;
    const start = span > 3000 ? t - int(365, 3000) : from;
    addRel(f.cred, aff, f.relType, roleFor(aff), start, t);
    if (i === 0 && avoid) {
      if (t === end && contiguousFirst) stats.priorContiguous++;
      else stats.priorGap++;
    }
    made++;
    nextFirm = f;
    to = start;
    if (to - lower0 < 300) break;
  }
  return made;
}

/** An agent currently affiliated with `f` (open), optionally with past affiliations first. */
function openAffiliation(aff, f, firms, history) {
  const lower = Math.max(aff.issue, f.from);
  let start;
  if (history) {
    start = dateIn(Math.min(lower + 500, REL_MAX_FROM - 30), REL_MAX_FROM - 20);
    start = Math.max(start, lower);
  } else {
    start = dateIn(lower, Math.max(lower, REL_MAX_FROM - 5));
  }
  addRel(f.cred, aff, f.relType, roleFor(aff), start, null);
  if (history) closedHistory(aff, firms, start, chance(0.2) ? 2 : 1, f, chance(0.5));
}

/** An agent with no open affiliation: closed ones ending by its relEnd, or none. */
function pastOnly(aff, firms, pNone) {
  if (chance(pNone)) return 0;
  return closedHistory(aff, firms, aff.relEnd, chance(0.3) ? 2 : 1, null, true);
}

// ---------------------------------------------------------------------------------------------
// Jurisdictions
// ---------------------------------------------------------------------------------------------
const jurisdictions = [
  {
    state: 'TX', status: 'active', refresh_frequency: 'nightly', relationship_coverage: 'verified_graph',
    relationship_coverage_notes: 'Sponsorship, designated broker, branch and inspector supervision links are published in the licence holder files and loaded in full.',
    source_id: 'tx-trec', source_name: 'Texas Real Estate Commission',
    source_url: 'https://www.trec.texas.gov/', source_format: 'trec-csv',
  },
  {
    state: 'FL', status: 'active', refresh_frequency: 'weekly', relationship_coverage: 'verified_graph',
    relationship_coverage_notes: 'Employing broker links come from the weekly licensee files; relationship dates are the first snapshot a link was seen, not the date it began.',
    source_id: 'fl-dbpr', source_name: 'Florida Department of Business and Professional Regulation, Division of Real Estate',
    source_url: 'https://www2.myfloridalicense.com/instant-public-records/', source_format: 'dbpr-csv',
  },
  {
    state: 'CA', status: 'active', refresh_frequency: 'weekly', relationship_coverage: 'verified_graph_partial',
    relationship_coverage_notes: 'Salesperson employing broker and designated officer links are loaded; broker associates come from a separate file that is not ingested yet.',
    source_id: 'ca-dre', source_name: 'California Department of Real Estate',
    source_url: 'https://www.dre.ca.gov/Licensees/ExamineeLicenseeListDataFiles.html', source_format: 'dre-csv',
  },
  {
    state: 'NY', status: 'active', refresh_frequency: 'weekly', relationship_coverage: 'source_context_only',
    relationship_coverage_notes: 'Only the business name a licensee works under is published; no supervision links. Only active licences are published.',
    source_id: 'ny-dos', source_name: 'New York Department of State, Division of Licensing Services',
    source_url: 'https://data.ny.gov/Government-Finance/Active-Real-Estate-Salespersons-and-Brokers/yg7h-zjbf', source_format: 'socrata-csv',
  },
  {
    state: 'WA', status: 'planned', refresh_frequency: 'weekly', relationship_coverage: 'not_yet_ingested',
    relationship_coverage_notes: 'Source identified; no records loaded yet.',
    source_id: 'wa-dol', source_name: 'Washington State Department of Licensing',
    source_url: 'https://www.dol.wa.gov/', source_format: 'dol-csv',
  },
];

// ---------------------------------------------------------------------------------------------
// Texas
// ---------------------------------------------------------------------------------------------
const NOTE_DISCIPLINE = 'Disciplinary action on file with the source';
const NOTE_NO_ADDRESS = 'Address not published by the source';

function buildTexas() {
  const S = 'TX';
  const txSA = () => `${int(400000, 899999)}-SA`;
  const txB = () => `${int(100000, 799999)}-B`;
  const txCo = () => `${int(9000100, 9099999)}-B`;
  const txInsp = () => String(int(5000, 26999));
  const activeStatus = cycler(['Active', 'Active', 'Active', 'Active', 'Active', 'Active', 'Active',
    'Active', 'Active', 'Active', 'Active', 'Probation - Active']);
  const otherStatus = cycler(['Inactive', 'Expired more than 6 months', 'Expired less than 6 months', 'Revoked',
    'Inactive', 'Suspended', 'Expired more than 6 months', 'Deceased', 'Surrendered', 'Expired less than 6 months',
    'Deleted', 'Inactive', 'Suspended', 'Expired more than 6 months']);
  const addrKind = () => (chance(0.12) ? 'physical' : 'mailing');

  function txPerson(type, display, status, dateOpts = {}, extra = {}) {
    const norm = normalizeStatus(status);
    let d;
    if (status === 'Expired less than 6 months') d = txDates('past', { lo: '2026-05-01', hi: '2026-10-31', ...dateOpts });
    else if (status === 'Expired more than 6 months') d = txDates('past', { lo: '2014-01-01', hi: '2026-04-30', ...dateOpts });
    else if (['Revoked', 'Deceased', 'Surrendered', 'Deleted'].includes(status)) d = txDates('past', { lo: '2012-01-01', hi: '2026-10-31', ...dateOpts });
    else d = txDates('future', dateOpts);
    const notes = [...(extra.notes || [])];
    if ((status === 'Revoked' || norm === 'suspended' || status === 'Probation - Active') && chance(0.6)) notes.push(NOTE_DISCIPLINE);
    let address = extra.address;
    if (address === undefined) {
      if (chance(0.03)) { address = null; notes.push(NOTE_NO_ADDRESS); } else address = makeAddress(S, addrKind());
    }
    return addCredential({
      state: S, number: extra.number ?? uniqueNumber(S, { salesperson: txSA, broker_associate: txB, broker: txB,
        professional_inspector: txInsp, real_estate_inspector: txInsp, apprentice_inspector: txInsp }[type]),
      type, display, status, ...d, person: extra.person ?? (extra.upper ? upper(makePerson(S)) : makePerson(S)), address, key: extra.key, notes,
    });
  }
  function txBusiness(type, display, name, status, dateOpts, city) {
    const d = status === 'Surrendered'
      ? txDates('past', { lo: '2019-06-01', hi: '2019-06-30', maxTerms: 10, ...dateOpts })
      : txDates('future', dateOpts);
    return addCredential({
      state: S, number: uniqueNumber(S, txCo), type, display, status, ...d, business: name,
      address: makeAddress(S, type === 'branch_office' ? 'physical' : chance(0.5) ? 'physical' : 'mailing', { city, business: true, county: true }),
    });
  }

  // Brokerage companies and branches
  const B1 = txBusiness('brokerage', 'Broker LLC', 'Lone Star Keystone Realty, LLC', 'Active', { from: '1998-01-01', to: '1998-12-31' }, 'Austin');
  const B2 = txBusiness('brokerage', 'Broker Corporation', 'Gulf Breeze Home Partners, Inc.', 'Active', { from: '2001-01-01', to: '2001-12-31' }, 'Houston');
  const B3 = txBusiness('brokerage', 'Broker LLC', 'Pecan Hollow Realty Group, LLC', 'Active', { from: '2006-01-01', to: '2008-12-31' }, 'San Antonio');
  const B4 = txBusiness('brokerage', 'Broker LLC', 'Bluebonnet Trail Realty, LLC dba "The Bluebonnet Team"', 'Active', { from: '2010-01-01', to: '2013-12-31' }, 'Dallas');
  const B5 = txBusiness('brokerage', 'Broker Corporation', 'Caprock Plains Realty, Inc.', 'Surrendered', { issueAfter: '1999-01-01' }, 'Fort Worth');
  B5.relEnd = dn('2019-06-30');
  const BR1 = txBusiness('branch_office', 'Broker Branch Office', 'Lone Star Keystone Realty, LLC - Round Rock', 'Active', { from: '2011-01-01', to: '2011-12-31' }, 'Round Rock');
  const BR2 = txBusiness('branch_office', 'Broker Branch Office', 'Lone Star Keystone Realty, LLC - Katy', 'Active', { from: '2015-01-01', to: '2015-12-31' }, 'Katy');

  // Individual brokers
  const early = { from: '1985-01-01', to: '2003-12-31' };
  const DB1 = txPerson('broker', 'Broker Individual', 'Active', early);
  const DB2 = txPerson('broker', 'Broker Individual', 'Active', early);
  const DB3 = txPerson('broker', 'Broker Individual', 'Active', early);
  const DB4 = txPerson('broker', 'Broker Individual', 'Active', early);
  const DB5 = txPerson('broker', 'Broker Individual', 'Expired more than 6 months', { lo: '2020-01-01', hi: '2021-12-31', maxTerms: 12 }, { notes: ['Designated broker of a surrendered brokerage'] });
  const IB1 = txPerson('broker', 'Broker Individual', 'Active', early); // designated broker of B2 until 2017
  // One person, two credentials: a sales agent licence that expired, then a broker licence.
  const twoPerson = makePerson(S);
  const twoKey = newKey(S);
  const base = uniqueNumber(S, () => String(int(500000, 699999)));
  const IB2 = addCredential({
    state: S, number: `${base}-B`, type: 'broker', display: 'Broker Individual', status: 'Active',
    issue: dn('2015-02-20'), exp: dn('2027-02-28'), person: twoPerson, address: makeAddress(S, 'mailing', { city: 'Dallas' }), key: twoKey,
  });
  const SA2 = addCredential({
    state: S, number: `${base}-SA`, type: 'salesperson', display: 'Sales Agent', status: 'Expired more than 6 months',
    issue: dn('2008-03-14'), exp: dn('2016-03-31'), person: twoPerson, address: makeAddress(S, 'mailing', { city: 'Dallas' }), key: twoKey,
    notes: ['Licence holder later licensed as a broker'],
  });
  const tops = [
    txPerson('broker', 'Broker Individual', 'Active', early),
    txPerson('broker', 'Broker Individual', 'Active', { from: '1995-01-01', to: '2012-12-31' }),
    txPerson('broker', 'Broker Individual', 'Active', { from: '1985-01-01', to: '1990-12-31' }, { upper: true, notes: ['Name published in upper case only'] }),
    txPerson('broker', 'Broker Individual', 'Revoked', { lo: '2016-01-01', hi: '2024-12-31' }),
  ];

  // Designated brokers, branches
  addRel(DB1, B1, 'designated_broker', 'brokerage', dn('2009-07-01'), null);
  addRel(IB1, B2, 'designated_broker', 'brokerage', dn('2006-05-01'), dn('2017-08-15'));
  addRel(DB2, B2, 'designated_broker', 'brokerage', dn('2017-08-15'), null);
  addRel(DB3, B3, 'designated_broker', 'brokerage', Math.max(B3.issue, REL_MIN), null);
  addRel(DB4, B4, 'designated_broker', 'brokerage', B4.issue + int(0, 30), null);
  addRel(DB5, B5, 'designated_broker', 'brokerage', Math.max(DB5.issue, B5.issue, REL_MIN) + int(1, 30), dn('2019-06-30'));
  addRel(B1, BR1, 'main_office', 'branch', BR1.issue, null);
  addRel(B1, BR2, 'main_office', 'branch', BR2.issue, null);
  // The former sales agent licence of IB2 was sponsored by B2.
  addRel(B2, SA2, 'sponsoring_broker', 'salesperson', dn('2008-04-01'), dn('2015-03-01'));

  const T = 'sponsoring_broker';
  const firms = [
    firm(B1, T, { open: 38, weight: 10 }), firm(B2, T, { open: 12, weight: 6 }), firm(B3, T, { open: 8, weight: 5 }),
    firm(B4, T, { open: 5, weight: 4 }), firm(B5, T, { weight: 8 }),
    firm(IB1, T, { open: 5, weight: 2, from: dn('2017-08-15') }), firm(IB2, T, { open: 3, weight: 2 }),
    firm(BR1, T, { open: 4, weight: 2 }), firm(BR2, T, { open: 3, weight: 2 }),
  ];
  const baCount = new Map([[B1, 4], [B2, 2], [B3, 1], [IB1, 1]]);
  for (const f of firms) {
    for (let i = 0; i < f.open; i++) {
      const ba = i < (baCount.get(f.cred) ?? 0);
      const history = chance(0.3);
      const a = txPerson(ba ? 'broker_associate' : 'salesperson', ba ? 'Broker Individual' : 'Sales Agent', activeStatus(),
        history ? { from: '1996-01-01', to: '2020-12-31' } : { from: '1990-01-01', to: '2026-09-30' });
      openAffiliation(a, f, firms, history);
    }
  }
  // Agents without a current sponsor
  for (let i = 0; i < 40; i++) {
    const ba = i % 10 === 7;
    const a = txPerson(ba ? 'broker_associate' : 'salesperson', ba ? 'Broker Individual' : 'Sales Agent', otherStatus(), {});
    pastOnly(a, firms, 0.15);
  }

  // Inspectors
  const PI1 = txPerson('professional_inspector', 'Professional Inspector', 'Active', { from: '1992-01-01', to: '2004-12-31' });
  const PI2 = txPerson('professional_inspector', 'Professional Inspector', 'Active', { from: '1999-01-01', to: '2009-12-31' });
  txPerson('professional_inspector', 'Professional Inspector', 'Active', { from: '2001-01-01', to: '2015-12-31' });
  const SI = 'supervising_inspector';
  const inspectorOpen = (sup, type, display, role, history) => {
    const a = txPerson(type, display, 'Active', history ? { from: '2012-01-01', to: '2019-12-31' } : { from: '2016-01-01', to: '2026-06-30' });
    const lower = Math.max(a.issue, sup.issue, REL_MIN);
    if (history) {
      const other = sup === PI1 ? PI2 : PI1;
      const mid = dateIn(lower + 400, Math.min(lower + 1500, REL_MAX_FROM - 60));
      addRel(other, a, SI, role, dateIn(lower, mid - 200), mid);
      addRel(sup, a, SI, role, mid, null);
      stats.priorContiguous++;
    } else {
      addRel(sup, a, SI, role, dateIn(lower, REL_MAX_FROM - 10), null);
    }
    return a;
  };
  inspectorOpen(PI1, 'apprentice_inspector', 'Apprentice Inspector', 'apprentice', false);
  inspectorOpen(PI1, 'apprentice_inspector', 'Apprentice Inspector', 'apprentice', false);
  inspectorOpen(PI1, 'apprentice_inspector', 'Apprentice Inspector', 'apprentice', false);
  inspectorOpen(PI1, 'real_estate_inspector', 'Real Estate Inspector', 'inspector', false);
  inspectorOpen(PI1, 'real_estate_inspector', 'Real Estate Inspector', 'inspector', true);
  inspectorOpen(PI2, 'apprentice_inspector', 'Apprentice Inspector', 'apprentice', true);
  inspectorOpen(PI2, 'apprentice_inspector', 'Apprentice Inspector', 'apprentice', false);
  inspectorOpen(PI2, 'real_estate_inspector', 'Real Estate Inspector', 'inspector', false);
  txPerson('real_estate_inspector', 'Real Estate Inspector', 'Active', { from: '2003-01-01', to: '2020-12-31' });
  const AIx = txPerson('apprentice_inspector', 'Apprentice Inspector', 'Expired more than 6 months', { lo: '2021-01-01', hi: '2025-12-31', maxTerms: 2 });
  addRel(PI1, AIx, SI, 'apprentice', Math.max(AIx.issue, REL_MIN) + int(5, 60), AIx.exp);

  return {
    big: B1, chain: { agentFirm: BR1, branch: BR1, brokerage: B1, designated: DB1 }, twoKey,
    twoCreds: [SA2, IB2], tops,
  };
}

// ---------------------------------------------------------------------------------------------
// Florida
// ---------------------------------------------------------------------------------------------
function buildFlorida() {
  const S = 'FL';
  const flPersonNo = () => (chance(0.15) ? `0${int(100000, 999999)}` : `3${int(0, 999999).toString().padStart(6, '0')}`);
  const flCoNo = () => `10${int(10000, 99999)}`;
  const activeStatus = cycler(['Current, Active', 'Current, Active', 'Current, Active', 'Current, Active',
    'Current, Active', 'Current, Active', 'Current, Active', 'Current, Active', 'Current, Active', 'Current, Active',
    'Current, Active', 'Current, Active', 'Current, Active', 'Probation']);
  const otherStatus = cycler(['Current, Inactive', 'Delinquent', 'Invol Inactive', 'Suspended', 'Current, Inactive',
    'Delinquent', 'Invol Inactive', 'Current, Inactive', 'Suspended', 'Delinquent']);
  const DISPLAY = { salesperson: 'SL Sales Associate', broker_associate: 'BL Broker Sales', broker: 'BK Broker', brokerage: 'CQ RE Corp.' };

  function flDatesFor(status, opts = {}) {
    if (status === 'Delinquent') return flDates(['2024-09-30', '2025-03-31', '2025-09-30', '2026-03-31', '2026-09-30'], opts);
    if (status === 'Invol Inactive') return flDates(['2022-09-30', '2023-03-31', '2023-09-30', '2024-03-31', '2024-09-30'], opts);
    return flDates(FL_FUTURE, opts);
  }
  function flPerson(type, status, opts = {}, extra = {}) {
    const d = flDatesFor(status, opts);
    const notes = [...(extra.notes || [])];
    if ((status === 'Suspended' || status === 'Probation') && chance(0.6)) notes.push(NOTE_DISCIPLINE);
    return addCredential({
      state: S, number: extra.number ?? uniqueNumber(S, flPersonNo), type, display: DISPLAY[type], status, ...d,
      person: makePerson(S), address: makeAddress(S, chance(0.08) ? 'physical' : 'business', extra.addrOpts), key: extra.key, notes,
    });
  }
  function flBusiness(name, status, opts, city) {
    const d = flDatesFor(status, opts);
    return addCredential({
      state: S, number: uniqueNumber(S, flCoNo), type: 'brokerage', display: DISPLAY.brokerage, status, ...d,
      business: name, address: makeAddress(S, 'business', { city, business: true, county: true }),
    });
  }

  const F1 = flBusiness('Coral Gate Realty Corp.', 'Current, Active', { from: '1997-01-01', to: '1999-12-31' }, 'Miami');
  const F2 = flBusiness('Palmetto Bay Properties, Inc.', 'Current, Active', { from: '2003-01-01', to: '2004-12-31' }, 'Tampa');
  const F3 = flBusiness('Banyan Key Real Estate, Inc.', 'Current, Active', { from: '2007-01-01', to: '2010-12-31' }, 'Orlando');
  const F4 = flBusiness('Manatee Shores Realty, LLC', 'Current, Active', { from: '2012-01-01', to: '2016-12-31' }, 'Cape Coral');
  const F5 = flBusiness('Sunfish Coast Realty, Inc.', 'Current, Active', { from: '2018-01-01', to: '2020-12-31' }, 'Jacksonville');
  const F6 = flBusiness('Osprey Landing Realty, Inc.', 'Invol Inactive', { from: '1995-01-01', to: '2001-12-31' }, 'Sarasota');
  F6.relEnd = dn('2022-09-30');

  const early = { from: '1985-01-01', to: '2004-12-31' };
  const FD = [F1, F2, F3, F4, F5].map(() => flPerson('broker', 'Current, Active', early));
  const FD6 = flPerson('broker', 'Current, Inactive', early);
  const FDold = flPerson('broker', 'Current, Active', early); // designated broker of F3 until 2016
  const FB1 = flPerson('broker', 'Current, Active', { from: '1990-01-01', to: '2010-12-31' });
  const FB2 = flPerson('broker', 'Current, Active', { from: '1990-01-01', to: '2012-12-31' });
  const tops = [
    flPerson('broker', 'Current, Active', early),
    flPerson('broker', 'Current, Active', { from: '2000-01-01', to: '2018-12-31' }),
    flPerson('broker', 'Current, Inactive', early),
  ];

  const D = 'designated_broker';
  addRel(FD[0], F1, D, 'brokerage', dn('2005-01-07'), null);
  addRel(FD[1], F2, D, 'brokerage', Math.max(F2.issue, REL_MIN) + int(0, 200), null);
  addRel(FDold, F3, D, 'brokerage', Math.max(F3.issue, REL_MIN) + int(0, 40), dn('2016-02-12'));
  addRel(FD[2], F3, D, 'brokerage', dn('2016-03-04'), null);
  addRel(FD[3], F4, D, 'brokerage', F4.issue + int(0, 20), null);
  addRel(FD[4], F5, D, 'brokerage', F5.issue + int(0, 20), null);
  addRel(FD6, F6, D, 'brokerage', dn('2005-01-07'), dn('2022-09-30'));

  const T = 'employing_broker';
  const firms = [
    firm(F1, T, { open: 40, weight: 10 }), firm(F2, T, { open: 12, weight: 6 }), firm(F3, T, { open: 7, weight: 5 }),
    firm(F4, T, { open: 4, weight: 3 }), firm(F5, T, { open: 3, weight: 3 }), firm(F6, T, { weight: 8 }),
    firm(FB1, T, { open: 4, weight: 2 }), firm(FB2, T, { open: 3, weight: 2 }),
  ];
  const blCount = new Map([[F1, 5], [F2, 2], [F3, 1]]);
  let shared = null;
  for (const f of firms) {
    for (let i = 0; i < f.open; i++) {
      const bl = i < (blCount.get(f.cred) ?? 0);
      const history = chance(0.3);
      const isShared = f.cred === F2 && i === 5; // the FL number that also exists in CA
      const a = flPerson(bl ? 'broker_associate' : 'salesperson', activeStatus(),
        history ? { from: '1996-01-01', to: '2020-12-31' } : { from: '1990-01-01', to: '2026-09-30' },
        isShared ? { number: SHARED_NUMBER } : {});
      if (isShared) shared = a;
      openAffiliation(a, f, firms, history);
    }
  }
  for (let i = 0; i < 36; i++) {
    const bl = i % 9 === 5;
    const status = otherStatus();
    const a = flPerson(bl ? 'broker_associate' : 'salesperson', status, {});
    pastOnly(a, firms, status === 'Current, Inactive' ? 0.5 : 0.15);
  }
  // Active sales associates with no employing broker on file (and no brokerage context either).
  const loose = [flPerson('salesperson', 'Current, Active', { from: '2024-01-01', to: '2026-08-31' }),
    flPerson('salesperson', 'Current, Active', { from: '2010-01-01', to: '2020-12-31' }, { notes: ['Employing broker not on file at snapshot'] })];
  return { big: F1, shared, tops, loose };
}

// ---------------------------------------------------------------------------------------------
// California
// ---------------------------------------------------------------------------------------------
const SHARED_NUMBER = '01234567';

function buildCalifornia() {
  const S = 'CA';
  const caNo = () => (chance(0.2) ? `00${int(100000, 999999)}` : `0${int(1000000, 2299999)}`);
  const otherStatus = cycler(['Expired', 'Revoked', 'Expired', 'Cancelled', 'Suspended', 'Expired', 'Suspended', 'Cancelled']);
  const DISPLAY = { salesperson: 'Salesperson', broker: 'Broker', broker_associate: 'Broker', brokerage: 'Corporation', officer: 'Broker (Designated Officer)' };

  function caDatesFor(status, opts = {}) {
    if (status === 'Expired') return termDates(4, 'past', { lo: '2015-01-01', hi: '2026-10-31', ...opts });
    if (status === 'Revoked' || status === 'Cancelled') return termDates(4, 'past', { lo: '2012-01-01', hi: '2026-10-31', ...opts });
    return termDates(4, 'future', opts);
  }
  function caPerson(type, status, opts = {}, extra = {}) {
    const d = caDatesFor(status, opts);
    const notes = [...(extra.notes || [])];
    if ((status === 'Revoked' || status === 'Suspended') && chance(0.7)) notes.push(NOTE_DISCIPLINE);
    return addCredential({
      state: S, number: extra.number ?? uniqueNumber(S, caNo), type, display: DISPLAY[type], status, ...d,
      person: makePerson(S), address: makeAddress(S, chance(0.12) ? 'physical' : 'mailing'), key: extra.key, notes,
    });
  }
  function caBusiness(name, status, opts, city) {
    const d = caDatesFor(status, opts);
    return addCredential({
      state: S, number: uniqueNumber(S, () => `0${int(1000000, 2299999)}`), type: 'brokerage', display: DISPLAY.brokerage, status, ...d,
      business: name, address: makeAddress(S, chance(0.5) ? 'physical' : 'mailing', { city, business: true, county: true }),
    });
  }

  const C1 = caBusiness('Golden Poppy Realty, Inc.', 'Licensed', { from: '1999-01-01', to: '2001-12-31' }, 'Los Angeles');
  const C2 = caBusiness('Pacific Crest Home Group, Inc.', 'Licensed', { from: '2002-01-01', to: '2004-12-31' }, 'San Diego');
  const C3 = caBusiness('Sierra Vista Properties Corp.', 'Licensed', { from: '2008-01-01', to: '2012-12-31' }, 'Sacramento');
  const C4 = caBusiness('Redwood Harbor Realty, Inc.', 'Licensed', { from: '2015-01-01', to: '2019-12-31' }, 'San Jose');
  const C5 = caBusiness('Mission Bell Realty, Inc.', 'Cancelled', { lo: '2018-01-01', hi: '2018-12-31', maxTerms: 4 }, 'Fresno');
  C5.relEnd = C5.exp;

  const early = { from: '1985-01-01', to: '2004-12-31' };
  const O = [C1, C2, C3, C4].map(() => caPerson('officer', 'Licensed', early));
  const O2old = caPerson('officer', 'Licensed', early);
  const O5 = caPerson('officer', 'Expired', { lo: '2019-01-01', hi: '2023-12-31', maxTerms: 6 });
  const CB1 = caPerson('broker', 'Licensed', { from: '1988-01-01', to: '2008-12-31' });
  const CB2 = caPerson('broker', 'Licensed', { from: '1995-01-01', to: '2014-12-31' });
  const tops = [caPerson('broker', 'Licensed', early), caPerson('broker', 'Licensed', { from: '2005-01-01', to: '2020-12-31' })];
  // Broker associates: their affiliations come from a file not ingested (partial coverage).
  const associates = [];
  for (let i = 0; i < 4; i++) {
    associates.push(caPerson('broker_associate', 'Licensed', { from: '1995-01-01', to: '2022-12-31' },
      i === 0 ? { notes: ['Broker associate affiliation published in a separate file'] } : {}));
  }

  const D = 'designated_officer';
  addRel(O[0], C1, D, 'brokerage', dn('2005-01-03'), null);
  addRel(O2old, C2, D, 'brokerage', dn('2005-01-03'), dn('2013-06-30'));
  addRel(O[1], C2, D, 'brokerage', dn('2013-07-22'), null);
  addRel(O[2], C3, D, 'brokerage', Math.max(C3.issue, REL_MIN, O[2].issue) + int(0, 30), null);
  addRel(O[3], C4, D, 'brokerage', Math.max(C4.issue, O[3].issue) + int(0, 30), null);
  addRel(O5, C5, D, 'brokerage', Math.max(C5.issue, REL_MIN, O5.issue) + 3, Math.min(C5.relEnd, O5.relEnd));

  const T = 'employing_broker';
  const firms = [
    firm(C1, T, { open: 15, weight: 8 }), firm(C2, T, { open: 10, weight: 6 }), firm(C3, T, { open: 6, weight: 4 }),
    firm(C4, T, { open: 3, weight: 3 }), firm(C5, T, { weight: 7 }),
    firm(CB1, T, { open: 5, weight: 2 }), firm(CB2, T, { open: 3, weight: 2 }),
  ];
  let shared = null;
  for (const f of firms) {
    for (let i = 0; i < f.open; i++) {
      const history = chance(0.3);
      const isShared = f.cred === C1 && i === 3;
      const a = caPerson('salesperson', 'Licensed',
        history ? { from: '1996-01-01', to: '2020-12-31' } : { from: '1990-01-01', to: '2026-09-30' },
        isShared ? { number: SHARED_NUMBER } : {});
      if (isShared) shared = a;
      openAffiliation(a, f, firms, history);
    }
  }
  // Licensed, no broker affiliation
  for (let i = 0; i < 4; i++) {
    const a = caPerson('salesperson', 'Licensed NBA', { from: '2000-01-01', to: '2025-12-31' });
    if (i < 2) closedHistory(a, firms, TODAY - int(60, 900), 1, null, true);
  }
  for (let i = 0; i < 30; i++) {
    const a = caPerson('salesperson', otherStatus(), {});
    pastOnly(a, firms, 0.15);
  }
  return { shared, tops, associates };
}

// ---------------------------------------------------------------------------------------------
// New York (business name context only; active licences only)
// ---------------------------------------------------------------------------------------------
function buildNewYork() {
  const S = 'NY';
  const firms = [
    ['HUDSON VALLEY HOMES REALTY', 'Poughkeepsie', 12],
    ['FIVE BOROUGHS PROPERTY GROUP LLC', 'New York', 10],
    ['ATLANTIC AVENUE HOMES LLC', 'Brooklyn', 9],
    ['WESTCHESTER HEARTH REAL ESTATE INC', 'White Plains', 8],
    ['NIAGARA FRONTIER REALTY CORP', 'Buffalo', 6],
  ];
  const oldStyle = () => `${pick(['30', '31', '40'])}${pick(['AU', 'SA', 'MA', 'GO', 'HE', 'LE'])}${String(int(0, 9999999)).padStart(7, '0')}`;
  const TYPES = {
    salesperson: ['REAL ESTATE SALESPERSON', '10401'],
    broker_associate: ['ASSOCIATE BROKER', '10491'],
    broker: ['CORPORATE BROKER', '10311'],
  };
  const byFirm = new Map();
  for (const [name, city, size] of firms) {
    const address = makeAddress(S, 'business', { city, business: true, county: true });
    const members = [];
    for (let i = 0; i < size; i++) {
      const type = i === 0 ? 'broker' : i <= (size >= 9 ? 2 : 1) ? 'broker_associate' : 'salesperson';
      const [display, prefix] = TYPES[type];
      const veteran = chance(0.2);
      const d = termDates(2, 'future', veteran ? { from: '1986-01-01', to: '2004-12-31' } : { from: '2005-01-01', to: '2026-09-30' });
      const number = uniqueNumber(S, veteran ? oldStyle : () => `${prefix}${String(int(0, 999999)).padStart(6, '0')}`);
      members.push(addCredential({
        state: S, number, type, display, status: 'Active', ...d, person: makePerson(S), address: { ...address },
        brokerage: name, notes: ['Name published in upper case only'],
      }));
    }
    byFirm.set(name, members);
  }
  return { byFirm };
}

// ---------------------------------------------------------------------------------------------
// CSV
// ---------------------------------------------------------------------------------------------
function csvField(v) {
  const s = v == null ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
function toCsv(columns, rows) {
  return [columns.join(','), ...rows.map((r) => columns.map((c) => csvField(r[c])).join(','))].join('\n') + '\n';
}
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') { field += '"'; i += 2; continue; }
        quoted = false; i++; continue;
      }
      field += ch; i++; continue;
    }
    if (ch === '"') { quoted = true; i++; continue; }
    if (ch === ',') { row.push(field); field = ''; i++; continue; }
    if (ch === '\r') { i++; continue; }
    if (ch === '\n') { row.push(field); rows.push(row); row = []; field = ''; i++; continue; }
    field += ch; i++;
  }
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  const [header, ...body] = rows;
  return { header, records: body.map((r) => Object.fromEntries(header.map((h, j) => [h, r[j] ?? '']))), widths: body.map((r) => r.length) };
}

// ---------------------------------------------------------------------------------------------
// Generate
// ---------------------------------------------------------------------------------------------
function generate() {
  const tx = buildTexas();
  const fl = buildFlorida();
  const ca = buildCalifornia();
  buildNewYork();

  const stateOrder = { TX: 0, FL: 1, CA: 2, NY: 3 };
  const byKey = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  const credRows = credentials
    .slice()
    .sort((a, b) => stateOrder[a.state] - stateOrder[b.state] || byKey(canonical(a.row.license_number), canonical(b.row.license_number)))
    .map((c) => c.row);
  const relRows = relationships
    .map((r) => ({
      supervisor_state: r.sup.state, supervisor_license_number: r.sup.row.license_number,
      affiliate_state: r.aff.state, affiliate_license_number: r.aff.row.license_number,
      affiliate_role: r.role, relationship_type: r.type, effective_from: ds(r.from),
      effective_to: r.to == null ? '' : ds(r.to), source: SOURCE,
    }))
    .sort((a, b) => stateOrder[a.supervisor_state] - stateOrder[b.supervisor_state]
      || byKey(a.supervisor_license_number, b.supervisor_license_number)
      || byKey(a.relationship_type, b.relationship_type)
      || byKey(a.affiliate_license_number, b.affiliate_license_number)
      || byKey(a.effective_from, b.effective_from));

  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(join(OUT_DIR, 'jurisdictions.csv'), toCsv(JURISDICTION_COLUMNS, jurisdictions));
  writeFileSync(join(OUT_DIR, 'credentials.csv'), toCsv(CREDENTIAL_COLUMNS, credRows));
  writeFileSync(join(OUT_DIR, 'relationships.csv'), toCsv(RELATIONSHIP_COLUMNS, relRows));
  return {
    bigBrokerages: [`TX ${tx.big.row.license_number}`, `FL ${fl.big.row.license_number}`],
    chain: [tx.chain.designated, tx.chain.brokerage, tx.chain.branch].map((c) => `${c.state} ${c.row.license_number}`),
    prior: { ...stats },
  };
}

// ---------------------------------------------------------------------------------------------
// Verify: re-read the files from disk and check every requirement of the demo set
// ---------------------------------------------------------------------------------------------
function verify() {
  const errors = [];
  const check = (ok, msg) => { if (!ok) errors.push(msg); };
  const read = (f, cols) => {
    const text = readFileSync(join(OUT_DIR, f), 'utf8');
    const parsed = parseCsv(text);
    check(JSON.stringify(parsed.header) === JSON.stringify(cols), `${f}: header differs from the doc`);
    check(parsed.widths.every((w) => w === cols.length), `${f}: a row has the wrong number of fields`);
    return parsed.records;
  };
  const J = read('jurisdictions.csv', JURISDICTION_COLUMNS);
  const C = read('credentials.csv', CREDENTIAL_COLUMNS);
  const R = read('relationships.csv', RELATIONSHIP_COLUMNS);
  const report = {};
  const count = (arr, f) => arr.reduce((m, x) => { const k = f(x); m[k] = (m[k] || 0) + 1; return m; }, {});

  // Jurisdictions
  const cov = Object.fromEntries(J.map((j) => [j.state, `${j.relationship_coverage}/${j.status}/${j.refresh_frequency}`]));
  check(cov.TX === 'verified_graph/active/nightly' && cov.FL === 'verified_graph/active/weekly'
    && cov.CA === 'verified_graph_partial/active/weekly' && cov.NY === 'source_context_only/active/weekly'
    && cov.WA === 'not_yet_ingested/planned/weekly', 'jurisdiction coverage');
  check(!C.some((c) => c.state === 'WA'), 'WA must have no credentials');

  // Credentials
  const TYPES = ['broker', 'salesperson', 'broker_associate', 'brokerage', 'branch_office', 'officer',
    'professional_inspector', 'real_estate_inspector', 'apprentice_inspector', 'instructor', 'other'];
  const credByKey = new Map();
  for (const [i, c] of C.entries()) {
    const at = `credentials line ${i + 2} (${c.state} ${c.license_number})`;
    check(c.source === SOURCE, `${at}: source`);
    check(TYPES.includes(c.license_type), `${at}: license_type`);
    check(normalizeStatus(c.status) === c.status_normalized, `${at}: status_normalized`);
    const biz = c.license_type === 'brokerage' || c.license_type === 'branch_office';
    check(c.entity_type === (biz ? 'business' : 'person'), `${at}: entity_type`);
    if (biz) check(c.business_name && c.full_name === c.business_name && !c.first_name && !c.last_name, `${at}: business names`);
    else check(c.first_name && c.last_name && !c.business_name && c.full_name === [c.first_name, c.middle_name, c.last_name, c.suffix].filter(Boolean).join(' '), `${at}: person names`);
    check(/^\d{4}-\d\d-\d\d$/.test(c.issue_date) && c.issue_date >= '1985-01-01' && c.issue_date <= '2026-10-31', `${at}: issue_date`);
    check(c.expiration_date > c.issue_date, `${at}: expiration after issue`);
    if (c.status_normalized === 'expired') check(c.expiration_date < SNAPSHOT, `${at}: expired but expiration not past`);
    if (c.status_normalized === 'active') check(c.expiration_date > SNAPSHOT, `${at}: active but expiration past`);
    const hasAddr = ['address_line1', 'address_city', 'address_postal_code'].some((k) => c[k]);
    if (hasAddr) {
      check(['business', 'mailing', 'physical'].includes(c.address_kind) && c.address_region === c.state
        && /^\d{5}$/.test(c.address_postal_code) && c.address_country === 'US', `${at}: address`);
      check(c.state !== 'NY' || c.address_kind === 'business', `${at}: NY address kind`);
    } else check(!c.address_kind, `${at}: address_kind without address`);
    check(c.state === 'NY' ? !!c.brokerage_name : !c.brokerage_name, `${at}: brokerage_name only for NY`);
    check(c.snapshot_date === SNAPSHOT && c.last_verified === (c.state === 'NY' ? LAST_VERIFIED_NY : LAST_VERIFIED), `${at}: snapshot/last_verified`);
    const k = `${c.state}|${canonical(c.license_number)}`;
    check(!credByKey.has(k), `${at}: duplicate (state, number)`);
    credByKey.set(k, c);
    if (c.state === 'TX') check(/^\d{6}-(SA|B)$|^\d{7}-B$|^\d{4,5}$/.test(c.license_number), `${at}: TX number format`);
    if (c.state === 'FL') check(/^\d{7,8}$/.test(c.license_number), `${at}: FL number format`);
    if (c.state === 'CA') check(/^\d{8}$/.test(c.license_number), `${at}: CA number format`);
    if (c.state === 'NY') check(/^\d{11}$|^\d\d[A-Z]{2}\d{7}$/.test(c.license_number) && c.status === 'Active', `${at}: NY number/status`);
  }
  report.credentialsTotal = C.length;
  report.credentialsByState = count(C, (c) => c.state);
  report.statusNormalizedByState = {};
  report.publishedStatusByState = {};
  for (const st of ['TX', 'FL', 'CA', 'NY']) {
    const rows = C.filter((c) => c.state === st);
    report.statusNormalizedByState[st] = count(rows, (c) => c.status_normalized);
    report.publishedStatusByState[st] = count(rows, (c) => c.status);
    if (st !== 'NY') for (const v of ['active', 'inactive', 'expired', 'suspended']) check(report.statusNormalizedByState[st][v] > 0, `${st}: no ${v}`);
  }
  const wantStatuses = {
    TX: ['Active', 'Inactive', 'Expired less than 6 months', 'Expired more than 6 months', 'Revoked', 'Deceased', 'Suspended', 'Probation - Active', 'Surrendered', 'Deleted'],
    FL: ['Current, Active', 'Current, Inactive', 'Invol Inactive', 'Delinquent', 'Suspended', 'Probation'],
    CA: ['Licensed', 'Licensed NBA', 'Expired', 'Revoked', 'Suspended', 'Cancelled'],
    NY: ['Active'],
  };
  for (const [st, list] of Object.entries(wantStatuses)) {
    for (const s of list) check(report.publishedStatusByState[st][s] > 0, `${st}: status ${s} missing`);
    check(Object.keys(report.publishedStatusByState[st]).every((s) => list.includes(s)), `${st}: unexpected status`);
  }
  const activeShare = C.filter((c) => c.status_normalized === 'active').length / C.length;
  report.activeShare = Math.round(activeShare * 1000) / 10 + '%';
  check(activeShare > 0.62 && activeShare < 0.8, 'active share');
  report.typesByState = {};
  for (const st of ['TX', 'FL', 'CA', 'NY']) report.typesByState[st] = count(C.filter((c) => c.state === st), (c) => c.license_type);
  report.addressKinds = count(C, (c) => `${c.state}:${c.address_kind || 'none'}`);
  report.withNotes = C.filter((c) => c.notes).length;
  report.withoutLicenseeKey = C.filter((c) => !c.licensee_key).length;

  // Numbers shared by two states
  const statesByNumber = new Map();
  for (const c of C) {
    const n = canonical(c.license_number);
    statesByNumber.set(n, [...(statesByNumber.get(n) || []), c.state]);
  }
  report.numbersInTwoStates = [...statesByNumber].filter(([, s]) => s.length > 1).map(([n, s]) => `${n} (${s.join(', ')})`);
  check(report.numbersInTwoStates.length >= 1, 'no number shared by two states');

  // Licensee keys shared by several credentials
  const byLk = new Map();
  for (const c of C) if (c.licensee_key) byLk.set(c.licensee_key, [...(byLk.get(c.licensee_key) || []), c]);
  const multi = [...byLk].filter(([, cs]) => cs.length > 1);
  report.multiCredentialLicensees = multi.map(([k, cs]) => `${k}: ${cs.map((c) => `${c.state} ${c.license_number} (${c.license_type}, ${c.status})`).join(' + ')}`);
  check(multi.length === 1 && multi[0][1].every((c) => c.state === multi[0][1][0].state && c.full_name === multi[0][1][0].full_name), 'exactly one two-credential licensee in one state');
  check(C.filter((c) => c.licensee_key).every((c) => /^demo-(tx|fl|ca|ny)-\d{6}$/.test(c.licensee_key) && c.licensee_key.slice(5, 7) === c.state.toLowerCase()), 'licensee_key format');

  // Names
  const accented = C.filter((c) => /[^\x00-\x7f]/.test(c.full_name)).map((c) => `${c.full_name} (${c.state} ${c.license_number})`);
  report.accentedNames = accented;
  check(accented.length >= 8, 'accented names');
  report.withMiddleName = C.filter((c) => c.middle_name).length;
  report.withSuffix = C.filter((c) => c.suffix).length;
  const personNames = C.filter((c) => c.entity_type === 'person').map((c) => c.full_name.toUpperCase());
  check(new Set(personNames).size === personNames.length - (multi.length ? multi[0][1].length - 1 : 0), 'person names unique except the two-credential licensee');
  report.nyBrokerageNames = count(C.filter((c) => c.state === 'NY'), (c) => c.brokerage_name);

  // Relationships
  const ROLE_RULES = {
    sponsoring_broker: { states: ['TX'], sup: ['broker', 'brokerage', 'branch_office'], aff: { salesperson: 'salesperson', broker_associate: 'broker_associate' } },
    employing_broker: { states: ['FL', 'CA'], sup: ['broker', 'brokerage'], aff: { salesperson: 'salesperson', broker_associate: 'broker_associate' } },
    designated_broker: { states: ['TX', 'FL'], sup: ['broker'], aff: { brokerage: 'brokerage' } },
    designated_officer: { states: ['CA'], sup: ['officer'], aff: { brokerage: 'brokerage' } },
    main_office: { states: ['TX'], sup: ['brokerage'], aff: { branch_office: 'branch' } },
    supervising_inspector: { states: ['TX'], sup: ['professional_inspector'], aff: { apprentice_inspector: 'apprentice', real_estate_inspector: 'inspector' } },
  };
  const idKeys = new Set();
  const pairs = new Set();
  const credId = (st, n) => `${st}|${canonical(n)}`;
  for (const [i, r] of R.entries()) {
    const at = `relationships line ${i + 2}`;
    check(r.source === SOURCE, `${at}: source`);
    const sup = credByKey.get(credId(r.supervisor_state, r.supervisor_license_number));
    const aff = credByKey.get(credId(r.affiliate_state, r.affiliate_license_number));
    check(sup && aff, `${at}: credential not on file`);
    if (!sup || !aff) continue;
    check(r.supervisor_state === r.affiliate_state && r.supervisor_state !== 'NY', `${at}: state`);
    const rule = ROLE_RULES[r.relationship_type];
    check(rule && rule.states.includes(r.supervisor_state) && rule.sup.includes(sup.license_type) && rule.aff[aff.license_type] === r.affiliate_role, `${at}: type/role`);
    const s = credId(r.supervisor_state, r.supervisor_license_number);
    const a = credId(r.affiliate_state, r.affiliate_license_number);
    check(s !== a, `${at}: self loop`);
    const id = `${s}>${a}|${r.relationship_type}|${r.effective_from}`;
    check(!idKeys.has(id), `${at}: duplicate relationship`);
    idKeys.add(id);
    pairs.add(`${s}>${a}`);
    check(r.effective_from >= '2005-01-01' && r.effective_from <= '2026-10-31', `${at}: effective_from range`);
    check(r.effective_from >= aff.issue_date, `${at}: effective_from before affiliate issue_date`);
    check(r.effective_from >= sup.issue_date, `${at}: effective_from before supervisor issue_date`);
    if (r.effective_to) check(r.effective_to > r.effective_from && r.effective_to <= SNAPSHOT, `${at}: effective_to`);
    else check(aff.status_normalized === 'active' && sup.status_normalized === 'active', `${at}: open relationship with a non-active licence`);
  }
  for (const p of pairs) {
    const [s, a] = p.split('>');
    check(!pairs.has(`${a}>${s}`), `both directions between ${s} and ${a}`);
  }
  report.relationshipsTotal = R.length;
  report.relationshipsByState = count(R, (r) => r.supervisor_state);
  report.relationshipsByType = count(R, (r) => `${r.supervisor_state}:${r.relationship_type}${r.effective_to ? ' (closed)' : ' (open)'}`);

  // No two open brokerage affiliations of one agent, no overlapping ones
  const AGENT_TYPES = ['sponsoring_broker', 'employing_broker', 'supervising_inspector'];
  const byAff = new Map();
  for (const r of R) {
    if (!AGENT_TYPES.includes(r.relationship_type)) continue;
    const a = credId(r.affiliate_state, r.affiliate_license_number);
    byAff.set(a, [...(byAff.get(a) || []), r]);
  }
  let overlaps = 0;
  for (const rs of byAff.values()) {
    const sorted = rs.slice().sort((x, y) => (x.effective_from < y.effective_from ? -1 : 1));
    for (let i = 1; i < sorted.length; i++) {
      if (!sorted[i - 1].effective_to || sorted[i - 1].effective_to > sorted[i].effective_from) overlaps++;
    }
  }
  check(overlaps === 0, `overlapping affiliations: ${overlaps}`);

  // Open affiliates per supervisor
  const openBySup = count(R.filter((r) => !r.effective_to && ['sponsoring_broker', 'employing_broker'].includes(r.relationship_type)),
    (r) => `${r.supervisor_state} ${r.supervisor_license_number}`);
  const bySize = Object.entries(openBySup).sort((a, b) => b[1] - a[1]);
  report.openAffiliatesBySupervisor = Object.fromEntries(bySize.map(([k, v]) => [`${k} ${credByKey.get(credId(...k.split(' '))).full_name}`, v]));
  const big = bySize.filter(([, v]) => v >= 30 && v <= 60);
  check(big.some(([k]) => k.startsWith('TX')) && big.some(([k]) => k.startsWith('FL')), 'big brokerages in TX and FL');
  check(bySize.filter(([, v]) => v >= 3 && v <= 15).length >= 5, 'several supervisors with 3-15 affiliates');

  // Chain of 3 open edges upward from an agent
  const openUp = new Map();
  for (const r of R) {
    if (r.effective_to) continue;
    const a = credId(r.affiliate_state, r.affiliate_license_number);
    openUp.set(a, [...(openUp.get(a) || []), credId(r.supervisor_state, r.supervisor_license_number)]);
  }
  const chains = [];
  const walk = (node, path) => {
    const ups = openUp.get(node) || [];
    if (!ups.length) { if (path.length >= 4) chains.push(path); return; }
    for (const u of ups) if (!path.includes(u)) walk(u, [...path, u]);
  };
  for (const c of C) if (['salesperson', 'broker_associate'].includes(c.license_type)) walk(credId(c.state, c.license_number), [credId(c.state, c.license_number)]);
  report.threeLevelChains = chains.length;
  report.exampleChain = chains.length ? chains[0].map((k) => { const c = credByKey.get(k); return `${c.state} ${c.license_number} (${c.license_type})`; }).join(' <- ') : null;
  check(chains.length > 0, 'no 3-level chain');

  // History
  const agents = C.filter((c) => ['salesperson', 'broker_associate', 'apprentice_inspector', 'real_estate_inspector'].includes(c.license_type) && c.state !== 'NY');
  let withPriorThenOpen = 0;
  let contiguous = 0;
  let gap = 0;
  let onlyClosed = 0;
  let none = 0;
  let nonActiveWithOpen = 0;
  let nonActive = 0;
  let withOpen = 0;
  for (const c of agents) {
    const rs = byAff.get(credId(c.state, c.license_number)) || [];
    const open = rs.filter((r) => !r.effective_to);
    const closed = rs.filter((r) => r.effective_to);
    if (c.status_normalized !== 'active') { nonActive++; if (open.length) nonActiveWithOpen++; }
    if (open.length) withOpen++;
    if (!rs.length) none++;
    else if (!open.length) onlyClosed++;
    else if (closed.length) {
      const o = open[0];
      const last = closed.slice().sort((x, y) => (x.effective_to < y.effective_to ? 1 : -1))[0];
      if (last.effective_to <= o.effective_from && last.supervisor_license_number !== o.supervisor_license_number) {
        withPriorThenOpen++;
        if (last.effective_to === o.effective_from) contiguous++; else gap++;
      }
    }
  }
  report.agents = {
    total: agents.length, withOpenAffiliation: withOpen,
    withPastThenOpenElsewhere: withPriorThenOpen, share: Math.round((withPriorThenOpen / agents.length) * 1000) / 10 + '%',
    contiguousHandover: contiguous, withGap: gap, onlyClosed, noRelationships: none,
    nonActive, nonActiveWithOpen,
  };
  check(withPriorThenOpen / agents.length > 0.14 && withPriorThenOpen / agents.length < 0.3, 'share of agents with past then open');
  check(contiguous > 0 && gap > 0, 'contiguous and gap handovers');
  check(onlyClosed >= 5 && none >= 5, 'agents with only closed / no relationships');
  check(nonActiveWithOpen === 0, 'non-active agent with an open relationship');

  // Licensees without relationships (by licence)
  const inRel = new Set();
  for (const r of R) { inRel.add(credId(r.supervisor_state, r.supervisor_license_number)); inRel.add(credId(r.affiliate_state, r.affiliate_license_number)); }
  report.credentialsWithoutRelationships = count(C.filter((c) => !inRel.has(credId(c.state, c.license_number))), (c) => `${c.state}:${c.license_type}`);
  check(C.filter((c) => c.state === 'NY').every((c) => !inRel.has(credId(c.state, c.license_number))), 'NY in relationships');
  check(C.some((c) => ['TX', 'FL'].includes(c.state) && c.license_type === 'broker' && c.status_normalized === 'active' && !inRel.has(credId(c.state, c.license_number))), 'top brokers without relationships');
  // FL sales associates without employer and without brokerage context
  report.flActiveSalesWithoutEmployer = C.filter((c) => c.state === 'FL' && c.license_type === 'salesperson' && c.status_normalized === 'active' && !inRel.has(credId(c.state, c.license_number))).map((c) => c.license_number);
  check(report.flActiveSalesWithoutEmployer.length >= 2, 'FL rows with nothing');

  return { errors, report };
}

// ---------------------------------------------------------------------------------------------
const checkOnly = process.argv.includes('--check');
const info = checkOnly ? null : generate();
const { errors, report } = verify();
if (info) Object.assign(report, info);
console.log(JSON.stringify(report, null, 2));
if (errors.length) {
  console.error(`\n${errors.length} check(s) failed:\n  ${errors.slice(0, 50).join('\n  ')}`);
  process.exitCode = 1;
} else {
  console.error('\nall checks passed');
}
