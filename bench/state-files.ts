// Each state's licences of the generated national dataset (bench/national-data.ts) written in that
// state's published layout (src/ingest/sources/*, docs/importing.md), as two snapshots in the
// folders `npm run ingest -- --all` reads (one folder per state): `first` as the dataset holds
// them, `next` with about 20% of the rows changed. What a state does not publish is left out as
// its source leaves it out: NY, CA and CT list current licences only; CA has no branch offices; CT
// lists salespersons with their supervising broker under its own numbers (RES. and REB.). Those
// rows leave the source when a snapshot first takes the state over from the dataset.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';

export const STATE_LAYOUTS = ['TX', 'FL', 'CA', 'NY', 'CT'] as const;
export type LayoutState = (typeof STATE_LAYOUTS)[number];

/** The file each state's snapshot is written to, named as its source names it. */
export const STATE_FILE: Record<LayoutState, string> = {
  TX: 'trec-license-holders.csv',
  FL: 'RE_rgn1.csv',
  CA: 'CurrList.csv',
  NY: 'yg7h-zjbf.csv',
  CT: '6tja-6vdt.csv',
};

const HEADER: Record<LayoutState, string[] | null> = {
  TX: ['License Type', 'License Number', 'Full Name', 'Suffix', 'Status', 'Original License Date', 'License Expiration Date', 'Designated Supervisor Flag', 'County', 'Related License Type', 'Related License Number', 'Related License Full Name', 'Related License Suffix', 'Related License Start Date', 'Agency Identifier', 'Key Name', 'First Name', 'Middle Name', 'Last Name', 'Updated'],
  FL: null,
  CA: ['multiple_license_ind', 'lastname_primary', 'firstname_secondary', 'name_suffix', 'lic_number', 'lic_type', 'lic_status', 'lic_effective_date', 'lic_expiration_date', 'original_date_of_license', 'related_lic_number', 'related_lastname_primary', 'related_firstname_secondary', 'related_name_suffix', 'related_lic_type', 'address_1', 'address_2', 'city', 'state', 'zip_code', 'foreign_nation', 'foreign_postal_info', 'county_name', 'restricted_flag', 'ethics_and_agency_ind'],
  NY: ['Business Name', 'Business Address 1', 'Business Address 2', 'Business City', 'Business State', 'Business Zip', 'County', 'License Holder Name', 'License Expiration Date', 'License Number', 'License Type'],
  CT: ['real_estate_salesperson', 'salespersoncredential', 'real_estate_broker', 'broker_credential'],
};

/** A dataset credentials.csv row. */
type Credential = Record<string, string>;
/** A licence's open supervising link in the dataset. */
interface Link {
  /** The supervisor's state and number: `TX|BK0000001`. */
  supervisor: string;
  from: string;
}
/** What a row of the next snapshot changes besides its supervisor: its status, its address. */
interface Change {
  status: boolean;
  address: boolean;
}

const mdy = (iso: string) => (iso ? `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}` : '');
const ymd = (iso: string) => iso.replace(/-/g, '');
const personName = (r: Credential) => [r.first_name, r.middle_name, r.last_name].filter(Boolean).join(' ');

const FL_RANK: Record<string, string> = { brokerage: 'CQ RE Corp.', branch_office: 'BO Branch Office', broker: 'BK Broker', salesperson: 'SL Sales Associate' };
const FL_STATUS: Record<string, [string, string]> = { active: ['Current', 'Active'], inactive: ['Current', 'Inactive'], expired: ['Delinquent', 'Inactive'], suspended: ['Suspended', ''] };
const TX_TYPE: Record<string, string> = { brokerage: 'Broker Company', branch_office: 'Broker Branch Office', broker: 'Broker Individual', salesperson: 'Sales Agent' };
const TX_STATUS: Record<string, string> = { active: 'Active', inactive: 'Inactive', expired: 'Expired more than 6 months', suspended: 'Suspended' };
const CA_TYPE: Record<string, string> = { brokerage: 'Corporation', broker: 'Broker', salesperson: 'Salesperson' };
const NY_TYPE: Record<string, string> = { brokerage: 'REAL ESTATE PRINCIPAL OFFICE', branch_office: 'REAL ESTATE BRANCH OFFICE', broker: 'INDIVIDUAL BROKER', salesperson: 'REAL ESTATE SALESPERSON' };

/** CT's own numbers for the dataset's: salespersons RES. and 7 digits; brokers REB., a digit for the kind, 6 digits. */
function ctNumber(number: string): string {
  const m = /^([A-Z]{2})(\d{7})$/.exec(number);
  if (!m) throw new Error(`a dataset licence number of two letters and 7 digits was expected: ${number}`);
  if (m[1] === 'SL') return `RES.${m[2]}`;
  const kind = ['BK', 'CQ', 'BO'].indexOf(m[1]) + 1;
  if (!kind || m[2][0] !== '0') throw new Error(`no CT broker number for ${number}`);
  return `REB.${kind}${m[2].slice(1)}`;
}

/**
 * One state's row of a snapshot (cells), or null where the source does not list the licence.
 * `supervisor` is the licence's supervisor after `change` (state and number), `names` the
 * supervisors' display names.
 */
function row(state: LayoutState, r: Credential, link: Link | undefined, supervisor: string | undefined, change: Change, names: Map<string, string>, snapshot: string): string[] | null {
  const person = r.entity_type === 'person';
  const boss = supervisor?.slice(3);
  const bossName = (supervisor && names.get(supervisor)) ?? '';
  const status = change.status ? (r.status_normalized === 'active' ? 'inactive' : 'active') : r.status_normalized;
  const address = change.address ? `${r.license_number.slice(2)} NEW ST` : r.address_line1;
  const moved = supervisor !== link?.supervisor;
  switch (state) {
    case 'FL':
      return [
        '25', '2501 Real Estate Broker or Sales', person ? `${r.last_name}, ${r.first_name} ${r.middle_name}`.trim() : r.business_name, '', FL_RANK[r.license_type], address, '', '',
        r.address_city, 'FL', r.address_postal_code, '13', 'Dade', r.license_number, ...FL_STATUS[status], mdy(r.issue_date), mdy(r.issue_date), mdy(r.expiration_date), '', '', '', boss ?? '',
      ];
    case 'TX': {
      // TREC publishes the current link's start date; a move starts on the snapshot's date.
      const from = moved ? snapshot : (link?.from ?? '');
      const start = boss && from ? `${mdy(from)} 12:00:00 AM` : '';
      const key = person ? `${r.last_name}, ${[r.first_name, r.middle_name].filter(Boolean).join(' ')}` : r.business_name;
      return [
        TX_TYPE[r.license_type], r.license_number, person ? personName(r) : r.business_name, '', TX_STATUS[status], mdy(r.issue_date), mdy(r.expiration_date), '', 'Harris',
        boss ? 'Broker' : '', boss ?? '', bossName, '', start, '', key, person ? r.first_name : '', person ? r.middle_name : '', person ? r.last_name : '', '',
      ];
    }
    case 'CA': {
      if (status !== 'active' || !CA_TYPE[r.license_type]) return null;
      // A salesperson listed without an employing broker is "Licensed NBA" (no broker affiliation).
      const lic = r.license_type === 'salesperson' && !boss ? 'Licensed NBA' : 'Licensed';
      return [
        'N', person ? r.last_name : r.business_name, person ? [r.first_name, r.middle_name].filter(Boolean).join(' ') : '', '', r.license_number, CA_TYPE[r.license_type], lic, ymd(r.issue_date), ymd(r.expiration_date), ymd(r.issue_date),
        boss ?? '', bossName, '', '', boss ? 'Broker' : '', address, '', r.address_city, 'CA', r.address_postal_code, '', '', 'LOS ANGELES', 'N', 'N',
      ];
    }
    case 'NY': {
      if (status !== 'active' || !NY_TYPE[r.license_type]) return null;
      const holder = person ? [r.last_name, r.first_name, r.middle_name.slice(0, 1)].filter(Boolean).join(' ') : r.business_name;
      // Persons are listed under the business they work for; a business under its own name.
      const business = person ? bossName : r.business_name;
      return [business, address, '', r.address_city, 'NY', r.address_postal_code, 'NONE', holder, mdy(r.expiration_date), r.license_number, NY_TYPE[r.license_type]];
    }
    case 'CT': {
      if (status !== 'active' || r.license_type !== 'salesperson') return null;
      return [personName(r), ctNumber(r.license_number), bossName, boss ? ctNumber(boss) : ''];
    }
  }
}

/**
 * Writes `first/<state>/<file>` and `next/<state>/<file>` for each of `states` from the dataset's
 * folder. In the next snapshot, counted per state: a tenth of the rows change status (in NY, CA and
 * CT, whose files list current licences only, they leave or join the file), a twentieth move
 * address, a twentieth of the supervised people move to the next supervisor of the same kind.
 * Returns the rows written per state and snapshot.
 */
export async function writeStateSnapshots(dataset: string, first: string, next: string, states: readonly LayoutState[] = STATE_LAYOUTS, snapshotDate = '2026-11-15'): Promise<Record<string, { first: number; next: number }>> {
  const wanted = new Set<string>(states);
  const links = new Map<string, Link>();
  const supervisors = new Set<string>();
  for await (const r of fs.createReadStream(path.join(dataset, 'relationships.csv')).pipe(parse({ columns: true }))) {
    if (!wanted.has(r.affiliate_state) || r.effective_to) continue;
    // A licence's one published link: its employing broker, a firm's designated broker, a branch's main office.
    links.set(`${r.affiliate_state}|${r.affiliate_license_number}`, { supervisor: `${r.supervisor_state}|${r.supervisor_license_number}`, from: r.effective_from });
    supervisors.add(`${r.supervisor_state}|${r.supervisor_license_number}`);
  }
  // The supervisors' display names, and each kind's supervisors in file order (where a move goes).
  const names = new Map<string, string>();
  const unlisted = new Set<string>();
  const byKind = new Map<string, string[]>();
  for await (const r of fs.createReadStream(path.join(dataset, 'credentials.csv')).pipe(parse({ columns: true }))) {
    const key = `${r.state}|${r.license_number}`;
    if (!supervisors.has(key)) continue;
    names.set(key, r.entity_type === 'person' ? personName(r) : r.business_name);
    // CA lists current licences only: a link to a supervisor it does not list would be rejected.
    if (r.state === 'CA' && (r.status_normalized !== 'active' || !CA_TYPE[r.license_type])) unlisted.add(key);
    const kind = `${r.state}|${r.license_type}`;
    const list = byKind.get(kind) ?? [];
    if (!list.length) byKind.set(kind, list);
    list.push(key);
  }
  const place = new Map<string, number>();
  for (const list of byKind.values()) list.forEach((n, i) => place.set(n, i));
  const kindOf = new Map<string, string>();
  for (const [kind, list] of byKind) for (const n of list) kindOf.set(n, kind);

  const outputs = new Map<string, { a: fs.WriteStream; b: fs.WriteStream; n: number; rows: { first: number; next: number } }>();
  for (const s of states) {
    const [a, b] = [first, next].map((root) => {
      fs.mkdirSync(path.join(root, s), { recursive: true });
      const out = fs.createWriteStream(path.join(root, s, STATE_FILE[s]));
      const header = HEADER[s];
      if (header) out.write(stringify([header], { quoted: s === 'CT' }));
      return out;
    });
    outputs.set(s, { a, b, n: 0, rows: { first: 0, next: 0 } });
  }
  const write = async (out: fs.WriteStream, state: LayoutState, cells: string[]) => {
    // CT quotes every non-empty field and writes an empty one bare; FL every field; the others where needed.
    const text = state === 'CT' ? `${cells.map((c) => (c ? `"${c.replace(/"/g, '""')}"` : '')).join(',')}\n` : stringify([cells], { quoted: state === 'FL' });
    if (!out.write(text)) await new Promise<void>((done) => out.once('drain', () => done()));
  };
  for await (const r of fs.createReadStream(path.join(dataset, 'credentials.csv')).pipe(parse({ columns: true }))) {
    const o = outputs.get(r.state);
    if (!o) continue;
    const state = r.state as LayoutState;
    const i = o.n++;
    const published = links.get(`${r.state}|${r.license_number}`);
    const link = published && !unlisted.has(published.supervisor) ? published : undefined;
    const boss = link?.supervisor;
    const kind = boss && kindOf.get(boss);
    const peers = kind ? byKind.get(kind)! : [];
    // People change employer; firms keep their designated broker and branches their main office.
    const move = r.entity_type === 'person' && !!boss && i % 20 === 17 && peers.length > 1;
    const change = { status: i % 10 === 3, address: i % 20 === 7 };
    const before = row(state, r, link, boss, { status: false, address: false }, names, snapshotDate);
    const after = row(state, r, link, move ? peers[(place.get(boss!)! + 1) % peers.length] : boss, change, names, snapshotDate);
    if (before) await write(o.a, state, before), (o.rows.first += 1);
    if (after) await write(o.b, state, after), (o.rows.next += 1);
  }
  await Promise.all([...outputs.values()].flatMap((o) => [o.a, o.b]).map((s) => new Promise((done) => s.end(done))));
  return Object.fromEntries([...outputs].map(([s, o]) => [s, o.rows]));
}
