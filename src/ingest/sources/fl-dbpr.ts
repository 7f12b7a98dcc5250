import type { AffiliateRole, LicenseType, RelationshipType, StatusFilter } from '../../domain/vocabulary.js';
import type { SourceFormat } from './source-types.js';
import { clean, delimitedRecords, isoDate, mapRecords, splitCommaName } from './source-util.js';

// Florida DBPR real estate files RE_rgn1..14.csv: headerless, 23 columns. The employer's licence
// number is published with no relationship dates.

const COLUMNS = [
  'board', 'board_name', 'licensee_name', 'dba_name', 'rank', 'address_1', 'address_2', 'address_3', 'city', 'state',
  'zip', 'county_code', 'county_name', 'license_number', 'primary_status', 'secondary_status', 'original_license_date',
  'status_effective_date', 'license_expiration_date', 'alternate_license_number', 'self_proprietors_name',
  'employers_name', 'employers_license_number',
];

const TYPE_BY_RANK: Record<string, LicenseType> = {
  SL: 'salesperson',
  BK: 'broker',
  BL: 'broker_associate',
  CQ: 'brokerage',
  PR: 'brokerage',
  BO: 'branch_office',
  ZH: 'instructor',
};
const LINK_BY_TYPE: Partial<Record<LicenseType, [RelationshipType, AffiliateRole]>> = {
  salesperson: ['employing_broker', 'salesperson'],
  broker: ['employing_broker', 'broker_associate'],
  broker_associate: ['employing_broker', 'broker_associate'],
  branch_office: ['main_office', 'branch'],
};

/**
 * Primary status with the secondary (Active/Inactive) -> filter value: Current and Probation
 * follow the secondary; Invol Inactive is inactive; Delinquent is expired; Suspended suspended.
 */
function statusFilter(primary: string, secondary: string): StatusFilter {
  const p = primary.toLowerCase();
  if (p.startsWith('delinquent')) return 'expired';
  if (p.startsWith('suspend')) return 'suspended';
  if (p.startsWith('invol') || p.startsWith('revoked') || p.startsWith('null') || p.startsWith('voluntary')) return 'inactive';
  if (p.startsWith('current') || p.startsWith('probation')) return secondary.toLowerCase() === 'inactive' ? 'inactive' : 'active';
  throw new Error(`unknown primary status "${primary}"`);
}

export const FL_DBPR: SourceFormat = {
  format: 'dbpr-csv',
  sourceId: 'fl-dbpr',
  state: 'FL',
  description: 'Florida DBPR RE_rgn*.csv (headerless, 23 columns, quoted or not)',
  detect: (head) => {
    const first = head.split(/\r?\n/)[0] ?? '';
    return /^"?\d{2}"?,"?\d{4} /.test(first) && first.split(',').length >= 23;
  },
  rows(file, onBytes) {
    const records = delimitedRecords(file, { delimiter: ',', encoding: 'latin1', columns: false, quote: true, onBytes });
    return mapRecords(records, (values) => {
      const fields = Object.values(values);
      // Unquoted files: "LAST, FIRST MIDDLE" splits into two fields; the rank column then sits one
      // place to the right, which tells this apart from a really broken line.
      if (fields.length === COLUMNS.length + 1 && /^[A-Z]{2} /.test(fields[5] ?? '')) fields.splice(2, 2, `${fields[2]},${fields[3]}`);
      if (fields.length !== COLUMNS.length) throw new Error(`malformed line: ${COLUMNS.length} fields expected, ${fields.length} found`);
      const v = Object.fromEntries(COLUMNS.map((c, i) => [c, fields[i]])) as Record<string, string>;
      const rank = clean(v.rank);
      const type = TYPE_BY_RANK[rank.slice(0, 2)] ?? 'other';
      const business = type === 'brokerage' || type === 'branch_office';
      const name = splitCommaName(v.licensee_name);
      const primary = clean(v.primary_status);
      const secondary = clean(v.secondary_status);
      const kind = LINK_BY_TYPE[type];
      const employer = clean(v.employers_license_number);
      const dba = clean(v.dba_name);
      return {
          credential: {
            state: 'FL',
            license_number: v.license_number,
            license_type: type,
            license_type_display: rank,
            status: secondary ? `${primary}, ${secondary}` : primary,
            status_normalized: statusFilter(primary, secondary),
            entity_type: business ? 'business' : 'person',
            full_name: business ? clean(v.licensee_name) : [name.first, name.middle, name.last].filter(Boolean).join(' '),
            first_name: business ? '' : name.first,
            middle_name: business ? '' : name.middle,
            last_name: business ? '' : name.last,
            business_name: business ? v.licensee_name : dba,
            issue_date: isoDate(v.original_license_date),
            expiration_date: isoDate(v.license_expiration_date),
            address_kind: clean(v.address_1) || clean(v.city) ? 'business' : '',
            address_line1: v.address_1,
            address_line2: [v.address_2, v.address_3].map(clean).filter(Boolean).join(', '),
            address_city: v.city,
            address_county: v.county_name,
            address_region: v.state,
            address_postal_code: v.zip,
            notes: dba && !business ? `Doing business as ${dba}` : '',
          },
          links: employer && kind ? [{ supervisor_license_number: employer, relationship_type: kind[0], affiliate_role: kind[1], effective_from: null }] : [],
      };
    });
  },
};
