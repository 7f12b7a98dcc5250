import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';

/** The real source files in ../shared (a user's clone has none: tests that need them skip). */
export const SHARED_SOURCES = fileURLToPath(new URL('../../../shared/data/sources/', import.meta.url));
export const hasShared = fs.existsSync(path.join(SHARED_SOURCES, 'TX/trec-license-holders-inspectors.csv'));

/**
 * The small fixture with a relationship listed twice (the later row's values win) and an
 * affiliate whose name holds a tab and a line break (split on by read-model entries, a multi-line
 * field for Neo4j's importer).
 */
export function smallWithRepeats(small: string): string {
  const read = (name: string) => fs.readFileSync(path.join(small, name), 'utf8');
  return folderWith({
    'jurisdictions.csv': read('jurisdictions.csv'),
    'credentials.csv': `${read('credentials.csv').trimEnd()}\nTX,900001-SA,salesperson,,Active,,person,"ANNA\tMAE\nLEE",,,,,,,,,,,,,,,,,,fixture,2026-11-01,,\n`,
    'relationships.csv':
      `${read('relationships.csv').trimEnd()}\nTX,300001-B,TX,763828-SA,broker_associate,sponsoring_broker,2018-01-01,2026-08-31,fixture-2\n` +
      'TX,100001-B,TX,900001-SA,salesperson,sponsoring_broker,2021-03-01,,fixture\n',
  });
}

/** A temporary folder holding these files (name -> text): an import folder. */
export function folderWith(contents: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-import-'));
  for (const [name, text] of Object.entries(contents)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

export function tempFile(name: string, text: string | Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-src-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

export const TX_HEADER =
  'License Type,License Number,Full Name,Suffix,Status,Original License Date,License Expiration Date,Designated Supervisor Flag,County,Related License Type,Related License Number,Related License Full Name,Related License Suffix,Related License Start Date,Agency Identifier,Key Name,First Name,Middle Name,Last Name,Updated';

/** A TREC current-export row (20 columns) from the documented layout. */
export function txRow(o: {
  type: string;
  number: string;
  name: string;
  status?: string;
  issued?: string;
  expires?: string;
  related?: string;
  relatedStart?: string;
  first?: string;
  last?: string;
  agency?: string;
}): string {
  const [first = '', ...rest] = o.name.split(' ');
  const last = o.last ?? rest.pop() ?? '';
  const cells = [
    o.type, o.number, o.name, '', o.status ?? 'Active', o.issued ?? '01/15/2015', o.expires ?? '01/31/2027', '', '',
    o.related ? 'Broker' : '', o.related ?? '', '', '', o.relatedStart ?? '', o.agency ?? '', `"${last}, ${first}"`, o.first ?? first, '', last, '',
  ];
  return cells.join(',');
}

/** A CA CurrList file (windows-1252) from the documented header. */
export function caFile(rows: string[][]): string {
  const header = fs.existsSync(path.join(SHARED_SOURCES, 'CA/CurrList-header.csv'))
    ? fs.readFileSync(path.join(SHARED_SOURCES, 'CA/CurrList-header.csv'), 'utf8').trim()
    : 'multiple_license_ind,lastname_primary,firstname_secondary,name_suffix,lic_number,lic_type,lic_status,lic_effective_date,lic_expiration_date,original_date_of_license,related_lic_number,related_lastname_primary,related_firstname_secondary,related_name_suffix,related_lic_type,address_1,address_2,city,state,zip_code,foreign_nation,foreign_postal_info,county_name,restricted_flag,ethics_and_agency_ind';
  const text = [header, ...rows.map((r) => r.map((c) => (/[",]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(','))].join('\r\n') + '\r\n';
  return tempFile('CurrList.csv', iconv.encode(text, 'win1252'));
}

/** A legacy trecfile.txt (TAB, 32 columns, latin-1, stray NULs) from the documented layout. */
export function trecfile(rows: Record<string, string>[]): string {
  const cols = [
    'type', 'number', 'name', 'suffix', 'status', 'issued', 'expires', 'edu', 'mce', 'flag', 'phone', 'email',
    'm1', 'm2', 'm3', 'mcity', 'mstate', 'mzip', 'mcounty', 'p1', 'p2', 'p3', 'pcity', 'pstate', 'pzip', 'pcounty',
    'rtype', 'related', 'rname', 'rsuffix', 'rstart', 'agency',
  ];
  const text = rows.map((r) => cols.map((c) => r[c] ?? '').join('\t')).join('\r\n') + '\r\n';
  return tempFile('trecfile.txt', iconv.encode(text, 'latin1'));
}

/** A TREC export in `dir` of one broker (1-B) and `n` sales agents under it, all with `status`. */
export function txAgentsFile(dir: string, name: string, n: number, status: string): string {
  const rows = [TX_HEADER, txRow({ type: 'Broker Individual', number: '1-B', name: 'TOP BROKER' })];
  for (let i = 0; i < n; i++) {
    rows.push(txRow({ type: 'Sales Agent', number: `${100000 + i}-SA`, name: `AGENT NUMBER${i}`, status, related: '1-B', relatedStart: '01/02/2020 12:00:00 AM' }));
  }
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${rows.join('\n')}\n`);
  return file;
}

/**
 * Two TX snapshots for the change feed and webhooks: the second makes a broker inactive, moves an
 * agent to another broker, drops an agent, renews one and adds one.
 */
export const TX_FEED_SNAPSHOTS = {
  first: [
    TX_HEADER,
    txRow({ type: 'Broker Individual', number: '100-B', name: 'OLD BROKER' }),
    txRow({ type: 'Broker Individual', number: '200-B', name: 'NEW BROKER' }),
    txRow({ type: 'Sales Agent', number: '1-SA', name: 'MOVING AGENT', related: '100-B', relatedStart: '03/01/2020 12:00:00 AM' }),
    txRow({ type: 'Sales Agent', number: '2-SA', name: 'LEAVING AGENT', related: '100-B', relatedStart: '04/01/2021 12:00:00 AM' }),
    txRow({ type: 'Sales Agent', number: '3-SA', name: 'STEADY AGENT', expires: '01/31/2027' }),
  ].join('\n'),
  second: [
    TX_HEADER,
    txRow({ type: 'Broker Individual', number: '100-B', name: 'OLD BROKER', status: 'Inactive' }),
    txRow({ type: 'Broker Individual', number: '200-B', name: 'NEW BROKER' }),
    txRow({ type: 'Sales Agent', number: '1-SA', name: 'MOVING AGENT', related: '200-B', relatedStart: '09/15/2026 12:00:00 AM' }),
    txRow({ type: 'Sales Agent', number: '3-SA', name: 'STEADY AGENT', expires: '01/31/2029' }),
    txRow({ type: 'Sales Agent', number: '4-SA', name: 'FRESH AGENT' }),
  ].join('\n'),
};
