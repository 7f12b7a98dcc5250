import type { AffiliateRole, LicenseType, RelationshipType } from '../../domain/vocabulary.js';
import type { SourceFormat } from './source-types.js';
import { clean, delimitedRecords, mapRecords, isoDate } from './source-util.js';

// California DRE CurrList.csv (form RE 776): header, windows-1252, dates YYYYMMDD, 8-digit
// zero-padded numbers. related_lic_number is the employing broker of a salesperson, the
// corporation of an officer, the designated officer of a corporation; no relationship dates.
// Broker associates come from another file, so coverage is partial.

const TYPE_BY_NAME: Record<string, LicenseType> = {
  salesperson: 'salesperson',
  broker: 'broker',
  corporation: 'brokerage',
  officer: 'officer',
};
const LINK_BY_TYPE: Partial<Record<LicenseType, [RelationshipType, AffiliateRole]>> = {
  salesperson: ['employing_broker', 'salesperson'],
  broker: ['employing_broker', 'broker_associate'],
  officer: ['employing_broker', 'officer'],
  brokerage: ['designated_officer', 'brokerage'],
};
const HEADER = 'multiple_license_ind,lastname_primary,firstname_secondary';

export const CA_DRE: SourceFormat = {
  format: 'dre-currlist',
  sourceId: 'ca-dre',
  state: 'CA',
  description: 'California DRE CurrList.csv (header, windows-1252)',
  detect: (head) => head.replace(/"/g, '').startsWith(HEADER),
  rows(file, onBytes) {
    return mapRecords(delimitedRecords(file, { delimiter: ',', encoding: 'win1252', columns: true, quote: true, onBytes }), (v) => {
      const published = clean(v.lic_type);
      const type = TYPE_BY_NAME[published.toLowerCase()] ?? 'other';
      const business = type === 'brokerage';
      const last = clean(v.lastname_primary);
      const first = clean(v.firstname_secondary);
      const [given = '', ...middle] = first.split(' ');
      const kind = LINK_BY_TYPE[type];
      const related = clean(v.related_lic_number);
      return {
        credential: {
          state: 'CA',
          license_number: v.lic_number,
          license_type: type,
          license_type_display: published,
          status: v.lic_status,
          entity_type: business ? 'business' : 'person',
          full_name: business ? last : [first, last].filter(Boolean).join(' '),
          first_name: business ? '' : given,
          middle_name: business ? '' : middle.join(' '),
          last_name: business ? '' : last,
          suffix: v.name_suffix,
          business_name: business ? last : '',
          issue_date: isoDate(v.original_date_of_license),
          expiration_date: isoDate(v.lic_expiration_date),
          address_kind: clean(v.address_1) || clean(v.city) ? 'mailing' : '',
          address_line1: v.address_1,
          address_line2: v.address_2,
          address_city: v.city,
          address_county: v.county_name,
          address_region: v.state,
          address_postal_code: v.zip_code,
          address_country: clean(v.foreign_nation) || 'US',
          notes: clean(v.restricted_flag).toUpperCase() === 'Y' ? 'Restricted licence' : '',
        },
        links: related && kind ? [{ supervisor_license_number: related, relationship_type: kind[0], affiliate_role: kind[1], effective_from: null }] : [],
      };
    });
  },
};
