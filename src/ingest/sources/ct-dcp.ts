import type { SourceFormat } from './source-types.js';
import { RowRejection, clean, delimitedRecords, mapRecords } from './source-util.js';

// Connecticut DCP "Real Estate Salesperson Supervising Broker" (data.ct.gov 6tja-6vdt): one row
// per active salesperson with the broker supervising them. Brokers have no rows of their own: each
// is published on the rows that name it (SourceLink.supervisor). No dates, status or addresses.

const HEADER = 'real_estate_salesperson,salespersoncredential,real_estate_broker,broker_credential';
const SALESPERSON = /^RES\.\d{7}$/;
const BROKER = /^REB\.\d{7}$/;
const SUFFIXES = new Set(['JR', 'SR', 'II', 'III', 'IV', 'V']);

/**
 * Words that make a broker's name a firm's (docs/importing.md: CT): entity endings, trade words,
 * an ampersand or a digit. Checked against every broker name of the published sample.
 */
const FIRM_WORDS = new Set([
  'LLC', 'INC', 'INCORPORATED', 'CORP', 'CORPORATION', 'CO', 'COMPANY', 'COMPANIES', 'LTD', 'LIMITED', 'LLP', 'LP', 'PC',
  'PLLC', 'PARTNERSHIP', 'PARTNERS', 'GROUP', 'REALTY', 'REALTOR', 'REALTORS', 'ESTATE', 'ASSOC', 'ASSOCIATES',
  'NETWORK', 'PROPERTY', 'PROPERTIES', 'REFERRAL', 'AGENCY', 'SERVICES', 'SRVCS', 'BROKERAGE', 'BROKERS', 'INVESTMENT',
  'INVESTMENTS', 'MANAGEMENT', 'TRUST', 'HOMES', 'HOME', 'TEAM', 'ADVISORS', 'BUYERS', 'ENTERPRISES', 'HOLDINGS',
  'COMMERCIAL', 'RESIDENTIAL', 'INTERNATIONAL', 'THE',
]);

export function isFirmName(name: string): boolean {
  if (/[&\d]/.test(name)) return true;
  return name
    .toUpperCase()
    .replace(/\./g, '')
    .split(/[^A-Z']+/)
    .some((w) => FIRM_WORDS.has(w));
}

/** "FIRST MIDDLE LAST JR", as CT publishes it: the first word, the last (before a suffix), the words between. */
export function splitPublishedName(name: string): { first: string; middle: string; last: string; suffix: string } {
  const words = clean(name).split(' ').filter(Boolean);
  const suffix = words.length > 2 && SUFFIXES.has(words.at(-1)!.toUpperCase().replace(/\.$/, '')) ? words.pop()! : '';
  if (words.length < 2) return { first: '', middle: '', last: words[0] ?? '', suffix };
  return { first: words[0], middle: words.slice(1, -1).join(' '), last: words.at(-1)!, suffix };
}

/** A person's or a firm's credential cells. */
function credential(number: string, name: string, type: 'salesperson' | 'broker', notes: string) {
  const firm = type === 'broker' && isFirmName(name);
  const parts = firm ? { first: '', middle: '', last: '', suffix: '' } : splitPublishedName(name);
  return {
    state: 'CT',
    license_number: number,
    license_type: firm ? 'brokerage' : type,
    license_type_display: type === 'broker' ? 'Real Estate Broker' : 'Real Estate Salesperson',
    // The dataset lists active salespersons, and the brokers supervising them.
    status: 'Active',
    entity_type: firm ? 'business' : 'person',
    full_name: name,
    first_name: parts.first,
    middle_name: parts.middle,
    last_name: parts.last,
    suffix: parts.suffix,
    business_name: firm ? name : '',
    notes,
  };
}

export const CT_DCP: SourceFormat = {
  format: 'ct-dcp-supervision',
  sourceId: 'ct-dcp',
  state: 'CT',
  description: 'Connecticut DCP salespersons and their supervising broker (data.ct.gov 6tja-6vdt CSV, header)',
  detect: (head) => head.replace(/"/g, '').startsWith(HEADER),
  rows(file, onBytes) {
    return mapRecords(delimitedRecords(file, { delimiter: ',', encoding: 'utf8', columns: true, quote: true, onBytes }), (v) => {
      const name = clean(v.real_estate_salesperson);
      const number = clean(v.salespersoncredential).toUpperCase();
      const brokerName = clean(v.real_estate_broker);
      const broker = clean(v.broker_credential).toUpperCase();
      if (!SALESPERSON.test(number)) {
        throw new RowRejection('invalid license_number', number ? `salespersoncredential ${number} is not RES. and 7 digits` : 'salespersoncredential is empty');
      }
      if (!name) throw new RowRejection('invalid full_name', 'real_estate_salesperson is empty');
      if (broker && !BROKER.test(broker)) throw new RowRejection('invalid broker_credential', `broker_credential ${broker} is not REB. and 7 digits`);
      if (broker && !brokerName) throw new RowRejection('invalid broker', `broker_credential ${broker} comes without a real_estate_broker name`);
      if (brokerName && !broker) throw new RowRejection('invalid broker', `real_estate_broker "${brokerName}" comes without a broker_credential`);
      return {
        credential: credential(clean(v.salespersoncredential), name, 'salesperson', ''),
        links: broker
          ? [
              {
                supervisor_license_number: clean(v.broker_credential),
                relationship_type: 'supervising_broker',
                affiliate_role: 'salesperson',
                effective_from: null,
                supervisor: credential(clean(v.broker_credential), brokerName, 'broker', 'Published by the source only as the supervising broker of salespersons: no licence dates or address'),
              },
            ]
          : [],
      };
    });
  },
};
