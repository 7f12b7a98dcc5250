import type { AffiliateRole, LicenseType, RelationshipType } from '../../domain/vocabulary.js';
import type { SourceFormat, SourceLink } from './source-types.js';
import { clean, delimitedRecords, isoDate, mapRecords } from './source-util.js';

// Texas Real Estate Commission. The Related License Number of a row is its supervisor: the
// sponsoring broker of a sales agent (or of a broker working under another), the designated
// broker of a broker company, the main office of a branch, the supervising inspector of an
// apprentice or real estate inspector. Only the current link is published, with a start date.

const TYPE_BY_NAME: [RegExp, LicenseType][] = [
  [/^sales/i, 'salesperson'],
  [/^broker individual$/i, 'broker'],
  [/branch/i, 'branch_office'],
  [/^broker\b/i, 'brokerage'],
  [/^professional/i, 'professional_inspector'],
  [/^real estate( inspector)?$/i, 'real_estate_inspector'],
  [/^apprentice/i, 'apprentice_inspector'],
];
const TYPE_BY_CODE: Record<string, LicenseType> = {
  SALE: 'salesperson',
  BRK: 'broker',
  BLLC: 'brokerage',
  BCRP: 'brokerage',
  '6': 'brokerage',
  REB: 'branch_office',
};
const LINK_BY_TYPE: Partial<Record<LicenseType, [RelationshipType, AffiliateRole]>> = {
  salesperson: ['sponsoring_broker', 'salesperson'],
  broker: ['sponsoring_broker', 'broker_associate'],
  brokerage: ['designated_broker', 'brokerage'],
  branch_office: ['main_office', 'branch'],
  apprentice_inspector: ['supervising_inspector', 'apprentice'],
  real_estate_inspector: ['supervising_inspector', 'inspector'],
  professional_inspector: ['supervising_inspector', 'inspector'],
};
/** trecfile.txt status codes: display text as the current export writes it. */
const STATUS_BY_CODE: Record<string, string> = {
  '20': 'Current/Active',
  '21': 'Current/Inactive',
  '30': 'Probation/Active',
  '31': 'Probation/Inactive',
  '45': 'Expired',
  '47': 'Suspended',
  '56': 'Relinquished',
  '57': 'Revoked',
  '80': 'Deceased',
};

const isBusiness = (t: LicenseType) => t === 'brokerage' || t === 'branch_office';

function link(type: LicenseType, related: string, start: string): SourceLink[] {
  const number = clean(related);
  const kind = LINK_BY_TYPE[type];
  if (!number || !kind) return [];
  return [{ supervisor_license_number: number, relationship_type: kind[0], affiliate_role: kind[1], effective_from: isoDate(start) || null }];
}

const CSV_HEADER = 'License Type,License Number,Full Name,Suffix,Status,Original License Date,License Expiration Date';

export const TX_TREC_CSV: SourceFormat = {
  format: 'trec-csv',
  sourceId: 'tx-trec',
  state: 'TX',
  description: 'TREC license-holder export (CSV, 20 columns, header)',
  detect: (head) => head.startsWith(CSV_HEADER),
  rows(file, onBytes) {
    return mapRecords(delimitedRecords(file, { delimiter: ',', encoding: 'utf8', columns: true, quote: true, onBytes }), (v) => {
      const published = clean(v['License Type']);
      const type = TYPE_BY_NAME.find(([re]) => re.test(published))?.[1] ?? 'other';
      const business = isBusiness(type);
      return {
        credential: {
          state: 'TX',
          license_number: v['License Number'],
          license_type: type,
          license_type_display: published,
          status: v.Status,
          entity_type: business ? 'business' : 'person',
          full_name: v['Full Name'],
          first_name: business ? '' : v['First Name'],
          middle_name: business ? '' : v['Middle Name'],
          last_name: business ? '' : v['Last Name'],
          suffix: v.Suffix,
          business_name: business ? v['Full Name'] : '',
          issue_date: isoDate(v['Original License Date']),
          expiration_date: isoDate(v['License Expiration Date']),
          licensee_key: v['Agency Identifier'],
        },
        links: link(type, v['Related License Number'], v['Related License Start Date']),
      };
    });
  },
};

const LEGACY_COLUMNS = [
  'License_Type', 'License_Number', 'Full_Name', 'Suffix', 'License_Status', 'Original_License_Date',
  'License_Expiration_Date', 'Education_Status', 'MCE_Status', 'Designated_Supervisor_Flag', 'Phone_Number',
  'Email_Address', 'Mailing_Address_Line_1', 'Mailing_Address_Line_2', 'Mailing_Address_Line_3',
  'Mailing_Address_City', 'Mailing_Address_State_Code', 'Mailing_Address_Zip_Code', 'Mailing_Address_County_Code',
  'Physical_Address_Line_1', 'Physical_Address_Line_2', 'Physical_Address_Line_3', 'Physical_Address_City',
  'Physical_Address_State_Code', 'Physical_Address_Zip_Code', 'Physical_Address_County_Code', 'Related_License_Type',
  'Related_License_Number', 'Related_License_Full_Name', 'Related_License_Suffix', 'Related_License_Start_Date',
  'Agency_Identifier',
];

/** "LAST, FIRST MIDDLE" or "FIRST MIDDLE LAST": the legacy file writes persons either way. */
function personName(full: string) {
  if (full.includes(',')) {
    const [last, rest = ''] = full.split(',', 2).map(clean);
    const [first = '', ...middle] = rest.split(' ').filter(Boolean);
    return { first, middle: middle.join(' '), last, full: clean(`${rest} ${last}`) };
  }
  const parts = clean(full).split(' ');
  return { first: parts[0] ?? '', middle: parts.slice(1, -1).join(' '), last: parts.length > 1 ? parts[parts.length - 1] : '', full: clean(full) };
}

export const TX_TRECFILE: SourceFormat = {
  format: 'trecfile',
  sourceId: 'tx-trec',
  state: 'TX',
  description: 'TREC legacy trecfile.txt (TAB-separated, 32 columns, no header, CP850/latin-1)',
  detect: (head) => {
    const first = head.replace(/\u0000/g, '').split(/\r?\n/)[0] ?? '';
    const fields = first.split('\t');
    return fields.length === 32 && /^(SALE|BRK|BLLC|BCRP|6|REB|[A-Z0-9]{1,5})$/.test(fields[0].trim());
  },
  rows(file, onBytes) {
    return mapRecords(delimitedRecords(file, { delimiter: '\t', encoding: 'latin1', columns: LEGACY_COLUMNS, quote: false, onBytes }), (v) => {
      const code = clean(v.License_Type);
      const type = TYPE_BY_CODE[code] ?? 'other';
      const business = isBusiness(type);
      const statusCode = clean(v.License_Status);
      const status = STATUS_BY_CODE[statusCode];
      if (!status) throw new Error(`unknown status code "${statusCode}"`);
      const physical = clean(v.Physical_Address_Line_1) !== '';
      const p = physical ? 'Physical_Address_' : 'Mailing_Address_';
      const hasAddress = clean(v[`${p}Line_1`]) !== '' || clean(v[`${p}City`]) !== '';
      const name = personName(v.Full_Name);
      return {
        credential: {
          state: 'TX',
          license_number: v.License_Number,
          license_type: type,
          license_type_display: code,
          status,
          entity_type: business ? 'business' : 'person',
          full_name: business ? clean(v.Full_Name) : name.full,
          first_name: business ? '' : name.first,
          middle_name: business ? '' : name.middle,
          last_name: business ? '' : name.last,
          suffix: v.Suffix,
          business_name: business ? v.Full_Name : '',
          issue_date: isoDate(v.Original_License_Date),
          expiration_date: isoDate(v.License_Expiration_Date),
          address_kind: hasAddress ? (physical ? 'physical' : 'mailing') : '',
          address_line1: v[`${p}Line_1`],
          address_line2: [v[`${p}Line_2`], v[`${p}Line_3`]].map(clean).filter(Boolean).join(', '),
          address_city: v[`${p}City`],
          address_region: v[`${p}State_Code`],
          address_postal_code: v[`${p}Zip_Code`],
          licensee_key: v.Agency_Identifier,
        },
        links: link(type, v.Related_License_Number, v.Related_License_Start_Date),
      };
    });
  },
};
