import type { Row } from '../../graph/graph-port.js';
import type { SearchFilters } from '../../domain/search-filters.js';

// How a search's filters become a query: Cypher fragments and their parameters, and the Lucene
// query of Neo4j's full-text index.

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

/** Filters cypher/engine/neo4j/search.cypher applies in Lucene; the others stay Cypher fragments. */
export const LUCENE_FILTERS = new Set(['name', 'first_name', 'last_name', 'business_name', 'city', 'status', 'license_type']);

/** A search term as a Lucene wildcard on one field: the term anywhere in one of its words. */
const contains = (field: string, term: string) => `${field}:*${term.replace(/[+\-&|!(){}[\]^"~*?:\\/]/g, '\\$&')}*`;
const exactly = (field: string, value: string) => `${field}:"${value.replace(/["\\]/g, '\\$&')}"`;

/**
 * The Lucene query on the full-text index license_credential_search for a search's states, name
 * and city terms, status and type; undefined without a text term (the range indexes serve those).
 */
export function luceneQuery(f: SearchFilters): string | undefined {
  const terms = [
    ...f.nameTerms.map((t) => `(${['f_full', 'f_first', 'f_last', 'f_business'].map((field) => contains(field, t)).join(' OR ')})`),
    ...f.firstNameTerms.map((t) => contains('f_first', t)),
    ...f.lastNameTerms.map((t) => contains('f_last', t)),
    ...f.businessNameTerms.map((t) => contains('f_business', t)),
    ...f.cityTerms.map((t) => contains('f_city', t)),
  ];
  if (!terms.length) return undefined;
  const clauses = [`(${f.states.map((s) => exactly('state', s)).join(' OR ')})`, ...terms];
  if (f.status) clauses.push(exactly('status_normalized', f.status));
  if (f.licenseType) clauses.push(exactly('license_type', f.licenseType));
  return clauses.join(' AND ');
}
