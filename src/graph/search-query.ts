import type { Row } from './graph-port.js';
import type { SearchFilters } from '../domain/search-filters.js';

// How a search's filters become Cypher: fragments and their parameters (the brokerage searches the
// search index does not answer).

/**
 * A search's active filter fragments (each term its own, renamed) and their parameters; `today`
 * dates the brokerage filter's relationships in force.
 */
export function composeSearch(f: SearchFilters, today: string) {
  const active: { key: string; rename?: Record<string, string> }[] = [];
  const params: Row = { states: f.states };
  const terms = (key: string, list: string[]) =>
    list.forEach((term, i) => {
      const name = `${key}_term_${i}`;
      active.push({ key, rename: { [`${key}_term`]: name } });
      params[name] = term;
    });
  terms('name', f.nameTerms);
  terms('first_name', f.firstNameTerms);
  terms('last_name', f.lastNameTerms);
  terms('business_name', f.businessNameTerms);
  terms('city', f.cityTerms);
  terms('brokerage', f.brokerageTerms);
  if (f.brokerageTerms.length) {
    params.brokerage_types = [...f.brokerageTypes];
    params.today = today;
  }
  if (f.status) {
    active.push({ key: 'status' });
    params.status = f.status;
  }
  if (f.licenseType) {
    active.push({ key: 'license_type' });
    params.license_type = f.licenseType;
  }
  if (f.licenseNumberPrefix) {
    active.push({ key: 'license_number' });
    params.license_number_prefix = f.licenseNumberPrefix;
  }
  return { active, params };
}
