// A deterministic, realistic national dataset in the canonical import format (docs/importing.md: Canonical
// import format), for the national-scale benchmark: any number of credentials spread over the 50
// states and DC in proportion to their real licensee counts, surnames and first names with a
// real frequency skew and a long tail, 15% brokers, about 70% active, brokerages whose sizes are
// long-tailed (at 3M credentials several have 10k+ current affiliates), supervision chains 2-4
// deep (agent <- branch <- brokerage <- designated broker) and about 20% of agents with a closed
// past relationship. The same seed and size give the same bytes.
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** Licensee counts by jurisdiction (thousands, rounded from state regulators' published totals):
 * weights only; a dataset of any size keeps these proportions. */
export const STATE_WEIGHTS: Record<string, number> = {
  FL: 450, CA: 440, TX: 310, NY: 160, GA: 120, NC: 115, AZ: 95, IL: 95, NJ: 90, PA: 85, VA: 75,
  OH: 70, CO: 70, WA: 60, MI: 55, TN: 55, SC: 55, NV: 50, MD: 45, MA: 45, MN: 40, MO: 40, IN: 35,
  OR: 30, UT: 30, AL: 30, WI: 28, LA: 25, KY: 22, OK: 22, CT: 22, HI: 20, ID: 15, NM: 14, AR: 14,
  KS: 13, MS: 12, IA: 12, DE: 10, NE: 10, NH: 10, MT: 9, ME: 8, DC: 8, WV: 7, RI: 6, AK: 5, SD: 4,
  ND: 4, VT: 4, WY: 4,
};

// The most common U.S. surnames and first names, most frequent first; the long tail of surnames
// is made of syllables (13,500 more), so rare names stay rare.
const SURNAMES = `SMITH JOHNSON WILLIAMS BROWN JONES GARCIA MILLER DAVIS RODRIGUEZ MARTINEZ HERNANDEZ LOPEZ
GONZALEZ WILSON ANDERSON THOMAS TAYLOR MOORE JACKSON MARTIN LEE PEREZ THOMPSON WHITE HARRIS SANCHEZ
CLARK RAMIREZ LEWIS ROBINSON WALKER YOUNG ALLEN KING WRIGHT SCOTT TORRES NGUYEN HILL FLORES GREEN
ADAMS NELSON BAKER HALL RIVERA CAMPBELL MITCHELL CARTER ROBERTS GOMEZ PHILLIPS EVANS TURNER DIAZ
PARKER CRUZ EDWARDS COLLINS REYES STEWART MORRIS MORALES MURPHY COOK ROGERS GUTIERREZ ORTIZ MORGAN
COOPER PETERSON BAILEY REED KELLY HOWARD RAMOS KIM COX WARD RICHARDSON WATSON BROOKS CHAVEZ WOOD
JAMES BENNETT GRAY MENDOZA RUIZ HUGHES PRICE ALVAREZ CASTILLO SANDERS PATEL MYERS LONG ROSS FOSTER
JIMENEZ POWELL JENKINS PERRY RUSSELL SULLIVAN BELL COLEMAN BUTLER HENDERSON BARNES GONZALES FISHER
VASQUEZ SIMMONS ROMERO JORDAN PATTERSON ALEXANDER HAMILTON GRAHAM REYNOLDS GRIFFIN WALLACE MORENO
WEST COLE HAYES BRYANT HERRERA GIBSON ELLIS TRAN MEDINA AGUILAR STEVENS MURRAY FORD CASTRO MARSHALL
OWENS HARRISON FERNANDEZ MCDONALD WOODS WASHINGTON KENNEDY WELLS VARGAS HENRY CHEN FREEMAN WEBB TUCKER
GUZMAN BURNS CRAWFORD OLSON SIMPSON PORTER HUNTER GORDON MENDEZ SILVA SHAW SNYDER MASON DIXON MUNOZ
HUNT HICKS HOLMES PALMER WAGNER BLACK ROBERTSON BOYD ROSE STONE SALAZAR FOX WARREN MILLS MEYER RICE
SCHMIDT GARZA DANIELS FERGUSON NICHOLS STEPHENS SOTO WEAVER RYAN GARDNER PAYNE GRANT DUNN KELLEY
SPENCER HAWKINS ARNOLD PIERCE VAZQUEZ HANSEN PETERS SANTOS HART BRADLEY KNIGHT ELLIOTT CUNNINGHAM`.split(/\s+/);
const FIRST_NAMES = `JAMES MARY MICHAEL PATRICIA ROBERT JENNIFER JOHN LINDA DAVID ELIZABETH WILLIAM BARBARA RICHARD
SUSAN JOSEPH JESSICA THOMAS KAREN CHRISTOPHER SARAH CHARLES LISA DANIEL NANCY MATTHEW SANDRA ANTHONY
BETTY MARK ASHLEY DONALD EMILY STEVEN KIMBERLY ANDREW MARGARET PAUL DONNA JOSHUA MICHELLE KENNETH
CAROL KEVIN AMANDA BRIAN MELISSA TIMOTHY DEBORAH RONALD STEPHANIE GEORGE REBECCA JASON SHARON EDWARD
LAURA JEFFREY CYNTHIA RYAN DOROTHY JACOB AMY GARY KATHLEEN NICHOLAS ANGELA ERIC SHIRLEY JONATHAN
EMMA STEPHEN BRENDA LARRY PAMELA JUSTIN NICOLE SCOTT ANNA BRANDON SAMANTHA BENJAMIN KATHERINE SAMUEL
CHRISTINE GREGORY DEBRA ALEXANDER RACHEL PATRICK CAROLYN FRANK JANET RAYMOND MARIA JACK OLIVIA DENNIS
HEATHER JERRY HELEN TYLER CATHERINE AARON DIANE JOSE JULIE ADAM VICTORIA NATHAN JOYCE HENRY LAUREN`.split(/\s+/);
const SYLLABLES = 'AL BAR BEL BRO CAL CAR DAN DER FAR GAL HAR HOL KAN KER LAN LOR MAR MOR NOR PEL RAN ROS SAL STEN TAL VAN VEL WIN ZAN'.split(' ');
const ENDINGS = 'SON TON LEY MAN BERG FIELD WOOD STROM ETTI OVA ERA INI ANO AS EZ'.split(' ');
const CITIES = `SPRINGFIELD FRANKLIN GREENVILLE BRISTOL CLINTON FAIRVIEW SALEM MADISON GEORGETOWN ARLINGTON
ASHLAND BURLINGTON MANCHESTER MARION OXFORD CLAYTON JACKSON MILTON AUBURN DAYTON LEXINGTON MILFORD
RIVERSIDE WINCHESTER CLEVELAND HUDSON KINGSTON MOUNT_VERNON NEWPORT DOVER`.split(/\s+/).map((c) => c.replace('_', ' '));
const STREETS = 'MAIN OAK PINE MAPLE CEDAR ELM WASHINGTON LAKE HILL PARK VIEW SUNSET RIDGE HIGHLAND JEFFERSON'.split(' ');
const BRAND_WORDS = 'SUMMIT COASTAL PREMIER HERITAGE KEYSTONE LANDMARK PINNACLE FRONTIER CORNERSTONE HARBOR MERIDIAN LIBERTY'.split(' ');

export interface NationalOptions {
  /** Total credentials. */
  credentials: number;
  seed?: number;
  /** Snapshot date of every row (YYYY-MM-DD). */
  snapshot?: string;
}

export interface NationalStats {
  credentials: number;
  relationships: number;
  byState: Record<string, number>;
  brokers: number;
  active: number;
  agents: number;
  agentsWithPast: number;
  /** Current (open, active) affiliates of the largest brokerage, by state. */
  largestBrokerage: Record<string, { license_number: string; current_affiliates: number }>;
}

const CREDENTIAL_COLUMNS = [
  'state', 'license_number', 'license_type', 'license_type_display', 'status', 'status_normalized', 'entity_type',
  'full_name', 'first_name', 'middle_name', 'last_name', 'business_name', 'issue_date', 'expiration_date',
  'address_kind', 'address_line1', 'address_city', 'address_region', 'address_postal_code', 'source', 'snapshot_date',
];
const RELATIONSHIP_COLUMNS = [
  'supervisor_state', 'supervisor_license_number', 'affiliate_state', 'affiliate_license_number', 'affiliate_role',
  'relationship_type', 'effective_from', 'effective_to', 'source',
];
const STATUSES: [string, string, number][] = [
  // published, normalized, share
  ['Active', 'active', 0.7],
  ['Inactive', 'inactive', 0.18],
  ['Expired', 'expired', 0.1],
  ['Suspended', 'suspended', 0.02],
];

/** Cumulative Zipf weights 1/rank^s, normalized: sampled by zipfRank. */
export function zipf(n: number, s: number): Float64Array {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) cumulative[k] = total += 1 / (k + 1) ** s;
  for (let k = 0; k < n; k++) cumulative[k] /= total;
  return cumulative;
}

/** The rank (0-based) a uniform `u` in [0, 1) draws from cumulative weights. */
export function zipfRank(cumulative: Float64Array, u: number): number {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] < u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Splits `total` in proportion to `weights` (largest remainders), so the parts sum to it. */
export function apportion(total: number, weights: Record<string, number>): Record<string, number> {
  const sum = Object.values(weights).reduce((a, b) => a + b, 0);
  const exact = Object.entries(weights).map(([k, w]) => [k, (total * w) / sum] as const);
  const out = Object.fromEntries(exact.map(([k, x]) => [k, Math.floor(x)]));
  let left = total - Object.values(out).reduce((a, b) => a + b, 0);
  for (const [k] of [...exact].sort((a, b) => (b[1] % 1) - (a[1] % 1))) {
    if (left-- <= 0) break;
    out[k] += 1;
  }
  return out;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const isoDay = (day: number) => new Date(day * 86400000).toISOString().slice(0, 10);
const DAY_2000 = Date.UTC(2000, 0, 1) / 86400000;

/**
 * The dataset of this size and seed under `root` (dataset-<credentials>-<seed>), generated unless
 * a finished one is there (its stats.json is written last).
 */
export async function ensureNational(root: string, options: Required<Pick<NationalOptions, 'credentials' | 'seed'>>): Promise<{ folder: string; stats: NationalStats; generatedIn: number | null }> {
  const folder = path.join(root, `dataset-${options.credentials}-${options.seed}`);
  const statsFile = path.join(folder, 'stats.json');
  if (fs.existsSync(statsFile)) return { folder, stats: JSON.parse(fs.readFileSync(statsFile, 'utf8')), generatedIn: null };
  const started = Date.now();
  const stats = await generateNational(folder, options);
  fs.writeFileSync(statsFile, JSON.stringify(stats, null, 1));
  return { folder, stats, generatedIn: (Date.now() - started) / 1000 };
}

/** Writes jurisdictions.csv, credentials.csv and relationships.csv into `folder`. */
export async function generateNational(folder: string, options: NationalOptions): Promise<NationalStats> {
  const rng = xoroshiro128plus(options.seed ?? 20261123);
  const random = () => uniformFloat64(rng);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const pickZipf = (cumulative: Float64Array) => zipfRank(cumulative, random());
  const snapshot = options.snapshot ?? '2026-11-01';
  const snapshotDay = Date.parse(snapshot) / 86400000;

  const surnames = [...SURNAMES];
  for (const a of SYLLABLES) for (const b of SYLLABLES) for (const e of ENDINGS) surnames.push(`${a}${b.toLowerCase()}${e.toLowerCase()}`.toUpperCase());
  const surnameZipf = zipf(surnames.length, 0.75);
  const firstZipf = zipf(FIRST_NAMES.length, 0.9);
  const cityZipf = zipf(CITIES.length, 1);

  fs.mkdirSync(folder, { recursive: true });
  const sizes = apportion(options.credentials, STATE_WEIGHTS);
  fs.writeFileSync(
    path.join(folder, 'jurisdictions.csv'),
    stringify(
      Object.keys(sizes).map((state) => [state, 'active', 'weekly', 'verified_graph', `${state.toLowerCase()}-bench`, `${state} licensee register (generated)`]),
      { header: true, columns: ['state', 'status', 'refresh_frequency', 'relationship_coverage', 'source_id', 'source_name'] },
    ),
  );
  const credentials = fs.createWriteStream(path.join(folder, 'credentials.csv'));
  const relationships = fs.createWriteStream(path.join(folder, 'relationships.csv'));
  credentials.write(stringify([CREDENTIAL_COLUMNS]));
  relationships.write(stringify([RELATIONSHIP_COLUMNS]));
  // Writes wait for the stream to drain: memory stays flat at any size.
  const write = async (stream: fs.WriteStream, rows: unknown[][]) => {
    if (!rows.length) return;
    if (!stream.write(stringify(rows))) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
    rows.length = 0;
  };

  const stats: NationalStats = { credentials: 0, relationships: 0, byState: sizes, brokers: 0, active: 0, agents: 0, agentsWithPast: 0, largestBrokerage: {} };
  const statusOf = () => {
    let u = random();
    for (const s of STATUSES) if ((u -= s[2]) < 0) return s;
    return STATUSES[0];
  };
  for (const [state, size] of Object.entries(sizes)) {
    if (size === 0) continue;
    const source = `${state.toLowerCase()}-bench`;
    const credentialRows: unknown[][] = [];
    const relationshipRows: unknown[][] = [];
    let serial = 0;
    const number = (prefix: string) => `${prefix}${pad(++serial, 7)}`;
    const cityOf = () => CITIES[pickZipf(cityZipf)];
    const address = (city: string) => ['business', `${1 + Math.floor(random() * 9999)} ${pick(STREETS)} ST`, city, state, pad(Math.floor(random() * 100000), 5)];
    const issued = () => DAY_2000 - 5000 + Math.floor(random() * (snapshotDay - DAY_2000 + 4900));
    const credential = (o: { number: string; type: string; display: string; status: (typeof STATUSES)[number]; business?: string; person?: [string, string, string]; issue: number; city: string }) => {
      const expires = o.status[1] === 'expired' ? snapshotDay - 1 - Math.floor(random() * 700) : snapshotDay + 30 + Math.floor(random() * 700);
      const [first, middle, last] = o.person ?? ['', '', ''];
      credentialRows.push([
        state, o.number, o.type, o.display, o.status[0], o.status[1], o.business ? 'business' : 'person',
        o.business ?? `${first} ${middle} ${last}`, first, middle, last, o.business ?? '', isoDay(o.issue), isoDay(expires),
        ...address(o.city), source, snapshot,
      ]);
      stats.credentials += 1;
      if (o.status[1] === 'active') stats.active += 1;
    };
    const person = (): [string, string, string] => [FIRST_NAMES[pickZipf(firstZipf)], String.fromCharCode(65 + Math.floor(random() * 26)), surnames[pickZipf(surnameZipf)]];
    const link = (supervisor: string, affiliate: string, role: string, type: string, from: number, to: number | null) => {
      relationshipRows.push([state, supervisor, state, affiliate, role, type, isoDay(from), to === null ? '' : isoDay(to), source]);
      stats.relationships += 1;
    };

    // 15% brokers: brokerage companies (3%), their branch offices (1%), broker individuals (11%).
    const companies = Math.max(1, Math.round(size * 0.03));
    const branches = Math.round(size * 0.01);
    const brokers = Math.max(companies, Math.round(size * 0.11));
    const agents = size - companies - branches - brokers;
    stats.brokers += companies + branches + brokers;
    // Company sizes follow Zipf (s = 1): the top company of a 450k state has ~25k current agents.
    const companyZipf = zipf(companies, 1);
    const company: { number: string; issue: number; city: string; branches: { number: string; issue: number }[] }[] = [];
    for (let i = 0; i < companies; i++) {
      const city = cityOf();
      const name = i < 12 ? `${BRAND_WORDS[i]} REALTY GROUP LLC` : random() < 0.5 ? `${surnames[pickZipf(surnameZipf)]} REALTY LLC` : `${city} ${pick(['HOMES', 'PROPERTIES', 'REAL ESTATE'])} ${i} INC`;
      const c = { number: number('CQ'), issue: issued(), city, branches: [] as { number: string; issue: number }[] };
      company.push(c);
      credential({ number: c.number, type: 'brokerage', display: 'Real Estate Brokerage', status: STATUSES[0], business: name, issue: c.issue, city });
    }
    for (let i = 0; i < branches; i++) {
      // Branches go to the largest companies first, as they do.
      const c = company[pickZipf(companyZipf)];
      const b = { number: number('BO'), issue: Math.max(c.issue, issued()) };
      c.branches.push(b);
      credential({ number: b.number, type: 'branch_office', display: 'Branch Office', status: STATUSES[0], business: `BRANCH ${c.branches.length} OF ${c.number}`, issue: b.issue, city: cityOf() });
      link(c.number, b.number, 'branch', 'main_office', b.issue, null);
    }
    for (let i = 0; i < brokers; i++) {
      const issue = issued();
      const n = number('BK');
      const status = i < companies ? STATUSES[0] : statusOf();
      credential({ number: n, type: 'broker', display: 'Broker', status, person: person(), issue, city: cityOf() });
      if (i < companies) {
        // Each company's designated broker supervises it (the chain reads upward).
        const c = company[i];
        link(n, c.number, 'brokerage', 'designated_broker', Math.max(c.issue, issue), null);
      } else if (status[1] === 'active' && random() < 0.6) {
        const c = company[pickZipf(companyZipf)];
        link(c.number, n, 'broker_associate', 'sponsoring_broker', Math.max(c.issue, issue), null);
      }
    }
    const currentByCompany = new Map<string, number>();
    for (let i = 0; i < agents; i++) {
      const issue = issued();
      const n = number('SL');
      const status = statusOf();
      credential({ number: n, type: 'salesperson', display: 'Sales Associate', status, person: person(), issue, city: cityOf() });
      stats.agents += 1;
      const c = company[pickZipf(companyZipf)];
      // A third of a company's agents work out of one of its branches: four levels up to its broker.
      const office = c.branches.length && random() < 0.33 ? pick(c.branches) : c;
      const supervisor = office.number;
      let from = Math.max(issue, office.issue);
      if (random() < 0.2) {
        // A past brokerage, left when the current (or last) one began.
        const past = company[pickZipf(companyZipf)];
        const start = Math.max(issue, past.issue);
        const switched = Math.max(from, start + 1 + Math.floor(random() * Math.max(1, snapshotDay - start - 2)));
        link(past.number, n, 'salesperson', 'sponsoring_broker', start, switched);
        from = switched;
        stats.agentsWithPast += 1;
      }
      if (status[1] === 'active') {
        link(supervisor, n, 'salesperson', 'sponsoring_broker', from, null);
        currentByCompany.set(c.number, (currentByCompany.get(c.number) ?? 0) + 1);
      } else if (from < snapshotDay - 1) {
        // Not active: the last link closed some time before the snapshot.
        link(supervisor, n, 'salesperson', 'sponsoring_broker', from, from + 1 + Math.floor(random() * (snapshotDay - from - 1)));
      }
      if (credentialRows.length >= 5000) await write(credentials, credentialRows);
      if (relationshipRows.length >= 5000) await write(relationships, relationshipRows);
    }
    await write(credentials, credentialRows);
    await write(relationships, relationshipRows);
    const [top, count] = [...currentByCompany].reduce((a, b) => (b[1] > a[1] ? b : a), ['', 0]);
    stats.largestBrokerage[state] = { license_number: top, current_affiliates: count };
  }
  await Promise.all([credentials, relationships].map((s) => new Promise<void>((resolve) => s.end(() => resolve()))));
  return stats;
}
