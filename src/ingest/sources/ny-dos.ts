import type { LicenseType } from '../../domain/vocabulary.js';
import type { SourceFormat } from './source-types.js';
import { clean, delimitedRecords, mapRecords, isoDate, splitSpaceName } from './source-util.js';

// New York Department of State, "Active Real Estate Salespersons and Brokers" (data.ny.gov
// yg7h-zjbf): active licences only, no status column, no supervision: only the business name a
// licensee works under (brokerage context, source_context_only).

const TYPE_BY_NAME: Record<string, LicenseType> = {
  'REAL ESTATE SALESPERSON': 'salesperson',
  'ASSOCIATE BROKER': 'broker_associate',
  'INDIVIDUAL BROKER': 'broker',
  'LIMITED LIABILITY BROKER': 'broker',
  'CORPORATE BROKER': 'broker',
  'TRADENAME BROKER': 'broker',
  'PARTNERSHIP BROKER': 'broker',
  'REAL ESTATE PRINCIPAL OFFICE': 'brokerage',
  'REAL ESTATE BRANCH OFFICE': 'branch_office',
};
const HEADER = 'Business Name,Business Address 1,Business Address 2,Business City';

export const NY_DOS: SourceFormat = {
  format: 'nys-dos-csv',
  sourceId: 'ny-dos',
  state: 'NY',
  description: 'New York DOS active real estate licensees (CSV export, header)',
  detect: (head) => head.startsWith(HEADER),
  rows(file, onBytes) {
    return mapRecords(delimitedRecords(file, { delimiter: ',', encoding: 'utf8', columns: true, quote: true, onBytes }), (v) => {
      const published = clean(v['License Type']).toUpperCase();
      const type = TYPE_BY_NAME[published] ?? 'other';
      const business = type === 'brokerage' || type === 'branch_office';
      const holder = clean(v['License Holder Name']);
      const name = splitSpaceName(holder);
      const county = clean(v.County);
      return {
        credential: {
          state: 'NY',
          license_number: v['License Number'],
          license_type: type,
          license_type_display: clean(v['License Type']),
          // The dataset lists active licences only.
          status: 'Active',
          entity_type: business ? 'business' : 'person',
          full_name: business ? holder : [name.first, name.middle, name.last].filter(Boolean).join(' '),
          first_name: business ? '' : name.first,
          middle_name: business ? '' : name.middle,
          last_name: business ? '' : name.last,
          business_name: business ? holder : '',
          expiration_date: isoDate(v['License Expiration Date']),
          address_kind: clean(v['Business Address 1']) || clean(v['Business City']) ? 'business' : '',
          address_line1: v['Business Address 1'],
          address_line2: v['Business Address 2'],
          address_city: v['Business City'],
          address_county: county && county !== 'NONE' ? county : '',
          address_region: v['Business State'],
          address_postal_code: v['Business Zip'],
          brokerage_name: business ? '' : v['Business Name'],
          notes: 'Name published in upper case, last name first',
        },
        links: [],
      };
    });
  },
};
